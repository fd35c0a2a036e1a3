//! Writing result files so that a failure never leaves one behind: each file goes to a
//! temporary name in its target folder and is renamed into place once every file was written.

use std::path::{Path, PathBuf};

use joint_runtime::Simulation;
use joint_runtime::system::MultibodySystem;

use super::Failure;

/// Files written under temporary names, waiting for `commit`.
#[derive(Default)]
pub struct Pending {
    files: Vec<(PathBuf, PathBuf)>,
}

impl Pending {
    /// Write `bytes` to a temporary file beside `target`.
    pub fn add(&mut self, target: &Path, bytes: &[u8]) -> Result<(), Failure> {
        let dir = target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = target
            .file_name()
            .ok_or_else(|| Failure::io(format!("{} is not a file name", target.display())))?;
        let temp = dir.join(format!(
            ".{}.{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        if let Err(e) = std::fs::write(&temp, bytes) {
            let _ = std::fs::remove_file(&temp);
            return Err(Failure::io(format!(
                "cannot write {}: {e}",
                target.display()
            )));
        }
        self.files.push((temp, target.to_owned()));
        Ok(())
    }

    /// Rename every temporary file into place.
    pub fn commit(mut self) -> Result<(), Failure> {
        let files = std::mem::take(&mut self.files);
        for (i, (temp, target)) in files.iter().enumerate() {
            if let Err(e) = std::fs::rename(temp, target) {
                for (t, _) in &files[i..] {
                    let _ = std::fs::remove_file(t);
                }
                return Err(Failure::io(format!(
                    "cannot write {}: {e}",
                    target.display()
                )));
            }
        }
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        for (temp, _) in &self.files {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// A file-name-safe version of a sensor name.
fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Each stored sensor's rows as `DIR/NAME.csv`: a header `time,Position[0],…` (a joint's rows
/// by their names, `Force[n]`), then the rows.
pub fn write_sensor_csvs(
    pending: &mut Pending,
    dir: &Path,
    sim: &Simulation,
) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::io(format!("cannot create {}: {e}", dir.display())))?;
    let mut used: Vec<String> = Vec::new();
    for (i, sensor) in sim.system().sensors.iter().enumerate() {
        if !sensor.store_internal {
            continue;
        }
        let mut stem = file_stem(&MultibodySystem::display_name("sensors", i, &sensor.name));
        if used.contains(&stem) {
            stem = format!("{stem}_{i}");
        }
        used.push(stem.clone());
        let rows = sim
            .sensor_rows(joint_runtime::SensorIndex(i))
            .map_err(|e| Failure::io(e.to_string()))?;
        let width = rows.first().map_or(0, |r| r.len().saturating_sub(1));
        let var = if matches!(sensor.target, joint_runtime::SensorTarget::Load(_)) {
            "Load".to_owned()
        } else {
            sensor.output.exudyn_name().to_owned()
        };
        // a joint's rows by their names, other values by their index
        let names = sim
            .sensor_components(joint_runtime::SensorIndex(i))
            .filter(|n| n.len() == width);
        let mut text = String::from("time");
        for k in 0..width {
            match names {
                Some(n) => text.push_str(&format!(",{var}[{}]", n[k])),
                None => text.push_str(&format!(",{var}[{k}]")),
            }
        }
        text.push('\n');
        for row in rows {
            let line: Vec<String> = row.iter().map(|x| format!("{x:e}")).collect();
            text.push_str(&line.join(","));
            text.push('\n');
        }
        pending.add(&dir.join(format!("{stem}.csv")), text.as_bytes())?;
    }
    Ok(())
}
