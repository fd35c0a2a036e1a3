//! Triangle and line meshes of a scene: the tessellated primitives (sphere, cylinder, box)
//! and Exudyn's graphics data, in single precision as glTF stores them.

use crate::model::{Color, GraphicsData};

/// How a primitive's indices are read (glTF's `mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    /// Triples of indices.
    Triangles,
    /// Pairs of indices.
    Lines,
    /// A closed polyline.
    LineLoop,
}

/// One glTF mesh primitive: vertices, optional normals and vertex colours, and indices,
/// drawn in one material colour (white when there are vertex colours, which then give the
/// colour).
#[derive(Clone, Debug, PartialEq)]
pub struct Primitive {
    /// How `indices` are read.
    pub topology: Topology,
    /// Vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Empty, or unit vectors, one per position.
    pub normals: Vec<[f32; 3]>,
    /// Empty, or one RGBA per position, each component in [0, 1].
    pub colors: Vec<[f32; 4]>,
    /// Vertex indices.
    pub indices: Vec<u32>,
    /// Material RGBA.
    pub color: [f32; 4],
    /// Drawn from both sides (graphics data, whose winding is the user's).
    pub double_sided: bool,
}

/// A mesh: primitives drawn together under one scene node.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Mesh {
    /// The mesh's name (the item it draws).
    pub name: String,
    /// Its primitives.
    pub primitives: Vec<Primitive>,
}

impl Primitive {
    fn triangles(color: [f32; 4]) -> Self {
        Primitive {
            topology: Topology::Triangles,
            positions: Vec::new(),
            normals: Vec::new(),
            colors: Vec::new(),
            indices: Vec::new(),
            color,
            double_sided: false,
        }
    }

    /// The axis-aligned bounds of the positions (zero-size at the origin if empty).
    pub fn bounds(&self) -> ([f32; 3], [f32; 3]) {
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for p in &self.positions {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        if self.positions.is_empty() {
            ([0.0; 3], [0.0; 3])
        } else {
            (lo, hi)
        }
    }
}

impl Mesh {
    /// The bounds of all primitives.
    pub fn bounds(&self) -> ([f32; 3], [f32; 3]) {
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for p in self.primitives.iter().filter(|p| !p.positions.is_empty()) {
            let (a, b) = p.bounds();
            for k in 0..3 {
                lo[k] = lo[k].min(a[k]);
                hi[k] = hi[k].max(b[k]);
            }
        }
        if lo[0] > hi[0] {
            ([0.0; 3], [0.0; 3])
        } else {
            (lo, hi)
        }
    }
}

pub(crate) fn rgba(c: Color) -> [f32; 4] {
    c.map(|x| x.clamp(0.0, 1.0) as f32)
}

fn f3(p: [f64; 3]) -> [f32; 3] {
    p.map(|x| x as f32)
}

/// A UV sphere of `radius` about `center` with `tiling` segments around the equator
/// (`general.sphereTiling`) and `tiling / 2` (at least 2) bands from pole to pole. The poles
/// are single vertices, so no triangle is degenerate.
pub fn sphere(center: [f64; 3], radius: f64, tiling: usize, color: [f32; 4]) -> Primitive {
    let mut p = Primitive::triangles(color);
    add_sphere(&mut p, center, radius, tiling, None);
    p
}

fn add_sphere(
    p: &mut Primitive,
    center: [f64; 3],
    radius: f64,
    tiling: usize,
    vertex_color: Option<[f32; 4]>,
) {
    let segments = tiling.max(3);
    let bands = (tiling / 2).max(2);
    let base = p.positions.len() as u32;
    let mut push = |n: [f64; 3]| {
        p.positions.push(f3([
            center[0] + radius * n[0],
            center[1] + radius * n[1],
            center[2] + radius * n[2],
        ]));
        p.normals.push(f3(n));
        if let Some(c) = vertex_color {
            p.colors.push(c);
        }
    };
    push([0.0, 0.0, 1.0]);
    for i in 1..bands {
        let theta = std::f64::consts::PI * i as f64 / bands as f64;
        for j in 0..segments {
            let phi = std::f64::consts::TAU * j as f64 / segments as f64;
            push([
                theta.sin() * phi.cos(),
                theta.sin() * phi.sin(),
                theta.cos(),
            ]);
        }
    }
    push([0.0, 0.0, -1.0]);
    let s = segments as u32;
    let ring = |i: u32, j: u32| base + 1 + (i - 1) * s + (j % s);
    let south = base + 1 + (bands as u32 - 1) * s;
    for j in 0..s {
        p.indices.extend([base, ring(1, j), ring(1, j + 1)]);
    }
    for i in 1..bands as u32 - 1 {
        for j in 0..s {
            let (a, b, c, d) = (
                ring(i, j),
                ring(i, j + 1),
                ring(i + 1, j),
                ring(i + 1, j + 1),
            );
            p.indices.extend([a, c, b, b, c, d]);
        }
    }
    for j in 0..s {
        p.indices.extend([
            ring(bands as u32 - 1, j),
            south,
            ring(bands as u32 - 1, j + 1),
        ]);
    }
}

/// A closed cylinder of `radius` along the local z axis from z = 0 to z = 1, with `tiling`
/// segments around (`general.cylinderTiling`); scaled along z to the length it spans.
pub fn unit_cylinder(radius: f64, tiling: usize, color: [f32; 4]) -> Primitive {
    let mut p = Primitive::triangles(color);
    let s = tiling.max(3);
    let angle = |j: usize| std::f64::consts::TAU * j as f64 / s as f64;
    // side: two rings with radial normals
    for z in [0.0, 1.0] {
        for j in 0..s {
            let (sn, cs) = angle(j).sin_cos();
            p.positions.push(f3([radius * cs, radius * sn, z]));
            p.normals.push(f3([cs, sn, 0.0]));
        }
    }
    let s32 = s as u32;
    for j in 0..s32 {
        let k = (j + 1) % s32;
        p.indices.extend([j, k, s32 + j, k, s32 + k, s32 + j]);
    }
    // caps: a centre and a ring each, with axial normals
    for (z, nz) in [(0.0, -1.0), (1.0, 1.0)] {
        let centre = p.positions.len() as u32;
        p.positions.push(f3([0.0, 0.0, z]));
        p.normals.push(f3([0.0, 0.0, nz]));
        for j in 0..s {
            let (sn, cs) = angle(j).sin_cos();
            p.positions.push(f3([radius * cs, radius * sn, z]));
            p.normals.push(f3([0.0, 0.0, nz]));
        }
        for j in 0..s32 {
            let (a, b) = (centre + 1 + j, centre + 1 + (j + 1) % s32);
            if nz > 0.0 {
                p.indices.extend([centre, a, b]);
            } else {
                p.indices.extend([centre, b, a]);
            }
        }
    }
    p
}

/// A box of `size` centred at `center`, its edges along the local axes, with face normals.
pub fn cuboid(center: [f64; 3], size: [f64; 3], color: [f32; 4]) -> Primitive {
    let mut p = Primitive::triangles(color);
    let h = size.map(|s| 0.5 * s);
    for axis in 0..3 {
        for sign in [-1.0, 1.0] {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let mut n = [0.0; 3];
            n[axis] = sign;
            let base = p.positions.len() as u32;
            for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                let mut q = center;
                q[axis] += sign * h[axis];
                q[u] += a * h[u];
                q[v] += b * h[v];
                p.positions.push(f3(q));
                p.normals.push(f3(n));
            }
            // counter-clockwise seen from outside: (u, v, n) is right-handed
            if sign > 0.0 {
                p.indices
                    .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
            } else {
                p.indices
                    .extend([base, base + 2, base + 1, base, base + 3, base + 2]);
            }
        }
    }
    p
}

/// The primitives of a list of graphics data; `default_color` replaces a colour whose red
/// component is negative (Exudyn's "default"). `Text` is not drawn.
pub fn graphics_primitives(
    graphics: &[GraphicsData],
    default_color: Color,
    circle_tiling: usize,
) -> Vec<Primitive> {
    let color = |c: &Color| rgba(if c[0] < 0.0 { default_color } else { *c });
    let mut out = Vec::new();
    for g in graphics {
        match g {
            GraphicsData::Triangles {
                points,
                colors,
                normals,
                triangles,
            } => {
                if triangles.is_empty() {
                    continue;
                }
                let mut p = Primitive::triangles([1.0; 4]);
                p.double_sided = true;
                p.positions = points.iter().map(|&x| f3(x)).collect();
                p.colors = if colors.is_empty() {
                    vec![color(&default_color); points.len()]
                } else {
                    colors.iter().map(color).collect()
                };
                // Exudyn's normals need not be unit (or may be zero); glTF's must be unit, so
                // a list with a zero normal is dropped and the viewer shades flat.
                let unit: Vec<[f32; 3]> = normals
                    .iter()
                    .filter_map(|n| {
                        let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                        (l > 1e-12).then(|| f3(n.map(|x| x / l)))
                    })
                    .collect();
                if unit.len() == points.len() {
                    p.normals = unit;
                }
                p.indices = triangles.iter().flatten().copied().collect();
                out.push(p);
            }
            GraphicsData::Lines { points, colors } => {
                if points.len() < 2 {
                    continue;
                }
                let mut p = Primitive::triangles([1.0; 4]);
                p.topology = Topology::Lines;
                p.positions = points.iter().map(|&x| f3(x)).collect();
                p.colors = colors.iter().map(color).collect();
                p.indices = (0..points.len() as u32 - 1)
                    .flat_map(|k| [k, k + 1])
                    .collect();
                out.push(p);
            }
            GraphicsData::Spheres {
                points,
                radii,
                colors,
                resolution,
            } => {
                let mut p = Primitive::triangles([1.0; 4]);
                for ((c, r), col) in points.iter().zip(radii).zip(colors) {
                    add_sphere(&mut p, *c, *r, *resolution * 2, Some(color(col)));
                }
                out.push(p);
            }
            GraphicsData::Circle {
                position,
                radius,
                color: c,
            } => {
                let mut p = Primitive::triangles(color(c));
                p.topology = Topology::LineLoop;
                let n = circle_tiling.max(3);
                for j in 0..n {
                    let (s, cs) = (std::f64::consts::TAU * j as f64 / n as f64).sin_cos();
                    p.positions.push(f3([
                        position[0] + radius * cs,
                        position[1] + radius * s,
                        position[2],
                    ]));
                }
                p.indices = (0..n as u32).collect();
                out.push(p);
            }
            GraphicsData::Text { .. } => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each triangle's normal (from its winding) points away from the centre, and every
    /// vertex lies at the radius: the sphere is closed and outward-facing.
    #[test]
    fn sphere_is_outward_and_on_the_radius() {
        let c = [1.0, -2.0, 0.5];
        let p = sphere(c, 0.25, 16, [1.0; 4]);
        assert_eq!(p.positions.len(), 2 + 16 * 7);
        assert_eq!(p.indices.len() / 3, 2 * 16 * 7);
        for v in &p.positions {
            let r = (0..3)
                .map(|k| (v[k] as f64 - c[k]).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!((r - 0.25).abs() < 1e-6);
        }
        assert_outward(&p, c);
    }

    #[test]
    fn cylinder_and_box_are_outward() {
        let cyl = unit_cylinder(0.1, 16, [1.0; 4]);
        assert_eq!(cyl.positions.len(), 2 * 16 + 2 * 17);
        assert_outward(&cyl, [0.0, 0.0, 0.5]);
        let b = cuboid([0.1, 0.2, 0.3], [1.0, 2.0, 3.0], [1.0; 4]);
        assert_eq!((b.positions.len(), b.indices.len()), (24, 36));
        assert_eq!(b.bounds(), ([-0.4, -0.8, -1.2], [0.6, 1.2, 1.8]));
        assert_outward(&b, [0.1, 0.2, 0.3]);
    }

    /// Graphics data without colours take the class default; given colours are kept.
    #[test]
    fn graphics_triangles_take_the_default_color() {
        let g = GraphicsData::Triangles {
            points: vec![
                [0.0; 3],
                [2.0, 0.0, 0.0],
                [0.0, 2.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
            ],
            colors: vec![],
            normals: vec![],
            triangles: vec![[0, 3, 5], [3, 1, 4], [5, 4, 2], [3, 4, 5]],
        };
        let p = &graphics_primitives(&[g], [0.5, 0.5, 0.5, 1.0], 16)[0];
        assert_eq!(p.indices.len(), 12);
        assert_eq!(p.colors, vec![[0.5, 0.5, 0.5, 1.0]; 6]);
    }

    fn assert_outward(p: &Primitive, inside: [f64; 3]) {
        for t in p.indices.chunks(3) {
            let v = |k: usize| p.positions[t[k] as usize].map(f64::from);
            let (a, b, c) = (v(0), v(1), v(2));
            let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let n = [
                e1[1] * e2[2] - e1[2] * e2[1],
                e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0],
            ];
            let area = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!(area > 1e-9, "degenerate triangle {t:?}");
            let centroid: Vec<f64> = (0..3)
                .map(|k| (a[k] + b[k] + c[k]) / 3.0 - inside[k])
                .collect();
            let dot: f64 = (0..3).map(|k| n[k] * centroid[k]).sum();
            assert!(dot > 0.0, "triangle {t:?} faces inward");
        }
    }
}
