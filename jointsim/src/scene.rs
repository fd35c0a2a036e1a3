//! `jointsim scene` and `jointsim view`: a model's 3-D scene and motion as a glTF binary, or
//! as one self-contained HTML page that plays it (three.js inlined, works offline).

use std::path::Path;

use base64::Engine;
use joint_runtime::joints::JointRegistry;
use joint_runtime::model::read_model_and_visualization;
use joint_runtime::scene::{Motion, build_scene, glb::to_glb};

use super::{Failure, files, progress};

/// The page template and the viewer bundle (`npm run build` in tools/js).
const TEMPLATE: &str = include_str!("viewer.html");
const VIEWER_JS: &str = include_str!("../generated/viewer.js");

pub struct Options<'a> {
    pub registry: &'a JointRegistry,
    /// `--storage-limit` and `--solver`.
    pub solve: super::SolveArgs,
    pub model: &'a Path,
    pub result: Option<&'a Path>,
    pub out: &'a Path,
    pub quiet: bool,
}

/// The `.glb` of the model's scene: moving as the result (a solution file or a result file)
/// says, or as a run of the model now.
fn scene_glb(o: &Options) -> Result<(Vec<u8>, String), Failure> {
    let text = std::fs::read_to_string(o.model)
        .map_err(|e| Failure::io(format!("cannot read {}: {e}", o.model.display())))?;
    let (mut model, visualization) =
        read_model_and_visualization(&text, o.registry).map_err(Failure::model)?;
    o.solve.apply(&mut model.settings);
    let mut sim = model.mbs.assemble().map_err(Failure::model)?;
    let motion = match o.result {
        Some(path) => {
            let result = std::fs::read_to_string(path)
                .map_err(|e| Failure::io(format!("cannot read {}: {e}", path.display())))?;
            Motion::read(&result, &path.display().to_string(), sim.state().q.len())
                .map_err(Failure::model)?
        }
        None => {
            let mut bar = progress::Bar::new(!o.quiet);
            let motion = Motion::record(&mut sim, &model, &mut |p| bar.update(p));
            bar.finish();
            motion.map_err(|e| match e {
                // refused before the run: what it would keep is too much (an invalid model)
                joint_runtime::Error::Setting { .. } => Failure::model(e),
                _ => Failure {
                    code: 3,
                    message: e.to_string(),
                },
            })?
        }
    };
    let title = o
        .model
        .file_stem()
        .map_or_else(|| "model".to_owned(), |s| s.to_string_lossy().into_owned());
    let scene =
        build_scene(&model, &visualization, &mut sim, &motion, &title).map_err(Failure::model)?;
    if !o.quiet {
        eprintln!(
            "jointsim: {} drawn items, {} meshes, {} frames from t = {} to {}",
            scene.nodes.len(),
            scene.meshes.len(),
            scene.times.len(),
            scene.times[0],
            scene.times[scene.times.len() - 1]
        );
    }
    Ok((to_glb(&scene), title))
}

fn write(out: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let mut pending = files::Pending::default();
    pending.add(out, bytes)?;
    pending.commit()
}

pub fn scene(o: &Options) -> Result<(), Failure> {
    let (glb, _) = scene_glb(o)?;
    write(o.out, &glb)
}

pub fn view(o: &Options) -> Result<(), Failure> {
    let (glb, title) = scene_glb(o)?;
    let encoded = base64::engine::general_purpose::STANDARD.encode(&glb);
    write(o.out, page(&title, &encoded).as_bytes())
}

/// The template with its three placeholders replaced in one pass, so that a title holding a
/// placeholder's text is not substituted again.
fn page(title: &str, glb_base64: &str) -> String {
    let title = html_escape(title);
    let mut out = String::with_capacity(TEMPLATE.len() + glb_base64.len() + VIEWER_JS.len());
    let mut rest = TEMPLATE;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        let value = match &rest[start + 2..start + len] {
            "TITLE" => title.as_str(),
            "GLB_BASE64" => glb_base64,
            "VIEWER_JS" => VIEWER_JS,
            _ => {
                out.push_str(&rest[..start + 2]);
                rest = &rest[start + 2..];
                continue;
            }
        };
        out.push_str(&rest[..start]);
        out.push_str(value);
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_replaces_each_placeholder_once() {
        let p = page("a {{GLB_BASE64}} <b>", "QUJD");
        assert!(p.contains("<title>a {{GLB_BASE64}} &lt;b&gt;</title>"));
        assert_eq!(p.matches("QUJD").count(), 1);
        assert!(!p.contains("{{VIEWER_JS}}"));
        assert!(!p.contains("</script") || p.matches("</script").count() == 2);
    }
}
