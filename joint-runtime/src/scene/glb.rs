//! A [`Scene`] as a glTF 2.0 binary (`.glb`): one scene, a node per drawn thing, a mesh per
//! shape, a material per colour, and one animation whose channels move the nodes that move
//! (linear interpolation between the motion's times, rotations as slerp).
//!
//! The scene's `extras` carry what a viewer needs beyond glTF: `up` (against gravity, in the
//! model's coordinates, which are kept as they are), `bounds` over the whole motion, `title`,
//! and `startTime` (animation time 0 is the motion's first time) and `endTime`.

use serde_json::{Value, json};

use super::Scene;
use super::mesh::Topology;

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;

/// The binary chunk and the accessors and buffer views into it.
#[derive(Default)]
struct Buffers {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Buffers {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut v = json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()});
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.bin.extend_from_slice(bytes);
        self.views.push(v);
        self.views.len() - 1
    }

    /// An accessor of f32 vectors of N components (`kind`: SCALAR, VEC3, VEC4), with min and
    /// max if `bounds`.
    fn floats<const N: usize>(
        &mut self,
        data: &[[f32; N]],
        kind: &str,
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        let bytes: Vec<u8> = data
            .iter()
            .flatten()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let view = self.view(&bytes, target);
        let mut a =
            json!({"bufferView": view, "componentType": FLOAT, "count": data.len(), "type": kind});
        if bounds {
            let lo: Vec<f32> = (0..N)
                .map(|k| data.iter().map(|v| v[k]).fold(f32::INFINITY, f32::min))
                .collect();
            let hi: Vec<f32> = (0..N)
                .map(|k| data.iter().map(|v| v[k]).fold(f32::NEG_INFINITY, f32::max))
                .collect();
            a["min"] = json!(lo);
            a["max"] = json!(hi);
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn indices(&mut self, indices: &[u32], vertices: usize) -> usize {
        let (bytes, component): (Vec<u8>, u32) = if vertices <= usize::from(u16::MAX) {
            (
                indices
                    .iter()
                    .flat_map(|&i| (i as u16).to_le_bytes())
                    .collect(),
                UNSIGNED_SHORT,
            )
        } else {
            (
                indices.iter().flat_map(|i| i.to_le_bytes()).collect(),
                UNSIGNED_INT,
            )
        };
        let view = self.view(&bytes, Some(ELEMENT_ARRAY_BUFFER));
        self.accessors.push(json!({
            "bufferView": view, "componentType": component, "count": indices.len(), "type": "SCALAR"
        }));
        self.accessors.len() - 1
    }
}

fn f32x3(v: [f64; 3]) -> [f32; 3] {
    v.map(|x| x as f32)
}

/// The scene as a `.glb` file.
pub fn to_glb(scene: &Scene) -> Vec<u8> {
    let mut buffers = Buffers::default();
    let mut materials = Materials::default();
    let mut material = |color: [f32; 4], double_sided: bool| materials.index(color, double_sided);

    // meshes; those with nothing to draw get no glTF mesh
    let mut meshes = Vec::new();
    let mut mesh_index = Vec::with_capacity(scene.meshes.len());
    for mesh in &scene.meshes {
        let mut primitives = Vec::new();
        for p in mesh
            .primitives
            .iter()
            .filter(|p| !p.positions.is_empty() && !p.indices.is_empty())
        {
            let mut attributes = json!({
                "POSITION": buffers.floats(&p.positions, "VEC3", Some(ARRAY_BUFFER), true)
            });
            if !p.normals.is_empty() {
                attributes["NORMAL"] =
                    json!(buffers.floats(&p.normals, "VEC3", Some(ARRAY_BUFFER), false));
            }
            if !p.colors.is_empty() {
                attributes["COLOR_0"] =
                    json!(buffers.floats(&p.colors, "VEC4", Some(ARRAY_BUFFER), false));
            }
            let mode = match p.topology {
                Topology::Triangles => 4,
                Topology::Lines => 1,
                Topology::LineLoop => 2,
            };
            primitives.push(json!({
                "attributes": attributes,
                "indices": buffers.indices(&p.indices, p.positions.len()),
                "material": material(p.color, p.double_sided),
                "mode": mode,
            }));
        }
        if primitives.is_empty() {
            mesh_index.push(None);
        } else {
            meshes.push(json!({"name": mesh.name, "primitives": primitives}));
            mesh_index.push(Some(meshes.len() - 1));
        }
    }

    let mut nodes = Vec::with_capacity(scene.nodes.len());
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    let t0 = scene.times.first().copied().unwrap_or(0.0);
    let mut input = None;
    for (n, node) in scene.nodes.iter().enumerate() {
        let first = node.poses[0];
        let q = first.rotation.quaternion();
        let mut v = json!({
            "name": node.name,
            "translation": f32x3(first.translation),
            "rotation": [q.i as f32, q.j as f32, q.k as f32, q.w as f32],
            "scale": f32x3(first.scale),
        });
        if let Some(m) = mesh_index[node.mesh] {
            v["mesh"] = json!(m);
        }
        nodes.push(v);
        if node.poses.len() < 2 || scene.times.len() < 2 {
            continue;
        }
        let input = *input.get_or_insert_with(|| {
            let times: Vec<[f32; 1]> = scene.times.iter().map(|t| [(t - t0) as f32]).collect();
            buffers.floats(&times, "SCALAR", None, true)
        });
        let translations: Vec<[f32; 3]> = node.poses.iter().map(|p| f32x3(p.translation)).collect();
        let scales: Vec<[f32; 3]> = node.poses.iter().map(|p| f32x3(p.scale)).collect();
        // successive quaternions on the same side, so that interpolation takes the short way
        let mut rotations: Vec<[f32; 4]> = Vec::with_capacity(node.poses.len());
        let mut previous = first.rotation.into_inner();
        for p in &node.poses {
            let mut q = p.rotation.into_inner();
            if q.dot(&previous) < 0.0 {
                q = -q;
            }
            previous = q;
            rotations.push([q.i as f32, q.j as f32, q.k as f32, q.w as f32]);
        }
        let varies = |a: &[[f32; 3]]| a.iter().any(|x| x != &a[0]);
        let mut channel = |path: &str, output: usize| {
            samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
            channels
                .push(json!({"sampler": samplers.len() - 1, "target": {"node": n, "path": path}}));
        };
        if varies(&translations) {
            let out = buffers.floats(&translations, "VEC3", None, false);
            channel("translation", out);
        }
        if rotations.iter().any(|r| r != &rotations[0]) {
            let out = buffers.floats(&rotations, "VEC4", None, false);
            channel("rotation", out);
        }
        if varies(&scales) {
            let out = buffers.floats(&scales, "VEC3", None, false);
            channel("scale", out);
        }
    }

    let (lo, hi) = scene.bounds;
    let mut gltf = json!({
        "asset": {"version": "2.0", "generator": concat!("jointsim ", env!("CARGO_PKG_VERSION"))},
        "scene": 0,
        "scenes": [{
            "name": scene.title,
            "nodes": (0..nodes.len()).collect::<Vec<_>>(),
            "extras": {
                "title": scene.title,
                "up": scene.up,
                "bounds": {"min": lo, "max": hi},
                "startTime": t0,
                "endTime": scene.times.last().copied().unwrap_or(t0),
                "background": scene.background,
            },
        }],
        "nodes": nodes,
    });
    if !meshes.is_empty() {
        gltf["meshes"] = json!(meshes);
        gltf["materials"] = json!(materials.values);
    }
    if !channels.is_empty() {
        gltf["animations"] =
            json!([{"name": "motion", "samplers": samplers, "channels": channels}]);
    }
    if !buffers.bin.is_empty() {
        while !buffers.bin.len().is_multiple_of(4) {
            buffers.bin.push(0);
        }
        gltf["buffers"] = json!([{"byteLength": buffers.bin.len()}]);
        gltf["bufferViews"] = json!(buffers.views);
        gltf["accessors"] = json!(buffers.accessors);
    }
    if nodes_is_empty(&gltf) {
        gltf.as_object_mut().expect("an object").remove("nodes");
        gltf["scenes"][0]
            .as_object_mut()
            .expect("an object")
            .remove("nodes");
    }

    container(&gltf, &buffers.bin)
}

fn nodes_is_empty(gltf: &Value) -> bool {
    gltf["nodes"].as_array().is_some_and(Vec::is_empty)
}

/// The JSON chunk and the binary chunk of a `.glb` file, or why it is not one.
pub fn split_glb(bytes: &[u8]) -> Result<(Value, &[u8]), String> {
    let word = |at: usize| -> Result<u32, String> {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| format!("truncated at byte {at}"))
    };
    if bytes.get(0..4) != Some(b"glTF") || word(4)? != 2 {
        return Err("not a glTF 2.0 binary".into());
    }
    if word(8)? as usize != bytes.len() {
        return Err("the header's length is not the file's".into());
    }
    let json_len = word(12)? as usize;
    if bytes.get(16..20) != Some(b"JSON") {
        return Err("the first chunk is not JSON".into());
    }
    let text = bytes.get(20..20 + json_len).ok_or("truncated JSON chunk")?;
    let gltf: Value = serde_json::from_slice(text).map_err(|e| e.to_string())?;
    let at = 20 + json_len;
    if at == bytes.len() {
        return Ok((gltf, &[]));
    }
    let bin_len = word(at)? as usize;
    if bytes.get(at + 4..at + 8) != Some(b"BIN\0") {
        return Err("the second chunk is not BIN".into());
    }
    let bin = bytes
        .get(at + 8..at + 8 + bin_len)
        .ok_or("truncated BIN chunk")?;
    Ok((gltf, bin))
}

/// The GLB container: its header, the JSON chunk (padded with spaces to 4 bytes) and the
/// binary chunk, if any.
fn container(gltf: &Value, bin: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(gltf).expect("a JSON value serializes");
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let bin_chunk = if bin.is_empty() { 0 } else { 8 + bin.len() };
    let total = 12 + 8 + text.len() + bin_chunk;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    if bin_chunk > 0 {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
    }
    out
}

/// The scene's materials, one per color and sidedness.
#[derive(Default)]
struct Materials {
    values: Vec<Value>,
    keys: Vec<([u32; 4], bool)>,
}

impl Materials {
    /// The material of `color` (double-sided or not), added if new.
    fn index(&mut self, color: [f32; 4], double_sided: bool) -> usize {
        let key = (color.map(f32::to_bits), double_sided);
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            return i;
        }
        let mut m = json!({
            "pbrMetallicRoughness": {"baseColorFactor": color, "metallicFactor": 0.0, "roughnessFactor": 0.6},
        });
        if color[3] < 1.0 {
            m["alphaMode"] = json!("BLEND");
        }
        if double_sided {
            m["doubleSided"] = json!(true);
        }
        self.values.push(m);
        self.keys.push(key);
        self.values.len() - 1
    }
}
