//! The test trees.

use super::*;

// ------------------------------------------------------------------------------------------
// Test trees

#[derive(Clone, Debug)]
pub(super) struct Tree {
    pub(super) name: String,
    pub(super) types: Vec<u8>,
    pub(super) parents: Vec<isize>,
    pub(super) a: Vec<[[f64; 3]; 3]>,
    pub(super) o: Vec<[f64; 3]>,
    pub(super) com: Vec<[f64; 3]>,
    pub(super) inertia: Vec<[[f64; 3]; 3]>,
    pub(super) mass: Vec<f64>,
    pub(super) gravity: [f64; 3],
    pub(super) base: [f64; 3],
}

pub(super) fn is_revolute(t: u8) -> bool {
    (1..=3).contains(&t)
}

pub(super) fn axis_index(t: u8) -> usize {
    (t as usize - 1) % 3
}

impl Tree {
    pub(super) fn n(&self) -> usize {
        self.types.len()
    }

    /// The joints on the path from link i to the base: i, π(i), π(π(i)), …
    pub(super) fn path(&self, i: usize) -> Vec<usize> {
        let mut out = vec![i];
        let mut j = i;
        while self.parents[j] >= 0 {
            j = self.parents[j] as usize;
            out.push(j);
        }
        out
    }

    pub(super) fn data(&self) -> KinematicTreeData {
        KinematicTreeData {
            joint_types: self.types.clone(),
            parents: self.parents.clone(),
            transformations: self.a.clone(),
            offsets: self.o.clone(),
            // nalgebra's From<[[T; R]; C]> takes columns
            inertias_com: self.inertia.iter().map(|j| transpose(j).into()).collect(),
            coms: self.com.iter().map(|&c| c.into()).collect(),
            masses: self.mass.clone(),
            link_forces: Vec::new(),
            link_torques: Vec::new(),
            joint_forces: Vec::new(),
            position_offsets: Vec::new(),
            p_control: Vec::new(),
            velocity_offsets: Vec::new(),
            d_control: Vec::new(),
            gravity: self.gravity.into(),
            base_offset: self.base,
        }
    }

    /// The global COM inertia R_i J_i R_iᵀ.
    pub(super) fn global_inertia(&self, i: usize, r: &M3<f64>) -> M3<f64> {
        mat_mul(&mat_mul(r, &self.inertia[i]), &transpose(r))
    }
}

pub(super) fn random_tree(
    name: &str,
    rng: &mut Rng,
    parents: Vec<isize>,
    types: Option<Vec<u8>>,
) -> Tree {
    let n = parents.len();
    for (i, &p) in parents.iter().enumerate() {
        assert!(p >= -1 && p < i as isize, "bad test tree {name}");
    }
    let types = types.unwrap_or_else(|| {
        // every joint type at least once (n ≥ 6), shuffled
        let mut t: Vec<u8> = (0..n)
            .map(|k| {
                if k < 6 {
                    k as u8 + 1
                } else {
                    rng.below(6) as u8 + 1
                }
            })
            .collect();
        for k in (1..n).rev() {
            let j = rng.below(k + 1);
            t.swap(k, j);
        }
        t
    });
    assert_eq!(types.len(), n);
    let mut tree = Tree {
        name: name.to_string(),
        types,
        parents,
        a: Vec::new(),
        o: Vec::new(),
        com: Vec::new(),
        inertia: Vec::new(),
        mass: Vec::new(),
        gravity: rng.vec3(-10.0, 10.0),
        base: rng.vec3(-1.0, 1.0),
    };
    for _ in 0..n {
        tree.a.push(rng.rotation());
        tree.o.push(rng.vec3(-1.0, 1.0));
        tree.com.push(rng.vec3(-0.5, 0.5));
        let m = rng.uniform(0.5, 2.0);
        tree.mass.push(m);
        // a box of random size in random principal axes
        let [x, y, z] = rng.vec3(0.1, 1.0);
        let d = [
            m * (y * y + z * z) / 12.0,
            m * (x * x + z * z) / 12.0,
            m * (x * x + y * y) / 12.0,
        ];
        let q = rng.rotation();
        let mut j = [[0.0; 3]; 3];
        for (r, row) in j.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = (0..3).map(|k| q[r][k] * d[k] * q[c][k]).sum();
            }
        }
        // exactly symmetric
        for r in 0..3 {
            for c in 0..r {
                j[c][r] = j[r][c];
            }
        }
        tree.inertia.push(j);
    }
    tree
}

pub(super) fn chain(n: usize) -> Vec<isize> {
    (0..n as isize).map(|i| i - 1).collect()
}

pub(super) fn trees() -> Vec<Tree> {
    let mut rng = Rng(0x6b74_5f64_796e_616d);
    let mut out = vec![
        random_tree("chain6", &mut rng, chain(6), None),
        random_tree("chain9", &mut rng, chain(9), None),
        random_tree("branched8", &mut rng, vec![-1, 0, 1, 1, 0, 4, 2, 5], None),
        random_tree(
            "forest10",
            &mut rng,
            vec![-1, 0, -1, 2, 1, 3, -1, 6, 4, 0],
            None,
        ),
    ];
    let parents: Vec<isize> = (0..12).map(|i| rng.below(i + 1) as isize - 1).collect();
    out.push(random_tree("random12", &mut rng, parents, None));
    for t in 1..=6u8 {
        out.push(random_tree(
            &format!("single_type{t}"),
            &mut rng,
            vec![-1],
            Some(vec![t]),
        ));
    }
    // two-link chains of every ordered pair of joint types
    let types: Vec<u8> = (1..=6)
        .flat_map(|a| (1..=6).flat_map(move |b| [a, b]))
        .collect();
    let parents: Vec<isize> = (0..72)
        .map(|i| if i % 2 == 0 { -1 } else { i - 1 })
        .collect();
    out.push(random_tree("pairs72", &mut rng, parents, Some(types)));
    out
}

pub(super) struct State {
    pub(super) q: Vec<f64>,
    pub(super) q_t: Vec<f64>,
    pub(super) q_tt: Vec<f64>,
}

pub(super) fn states(tree: &Tree) -> Vec<State> {
    let mut rng = Rng(0x7374_6174_6573 ^ tree.name.len() as u64 ^ (tree.n() as u64) << 20);
    (0..STATES)
        .map(|_| State {
            q: tree
                .types
                .iter()
                .map(|&t| {
                    if is_revolute(t) {
                        rng.uniform(-3.1, 3.1)
                    } else {
                        rng.uniform(-1.0, 1.0)
                    }
                })
                .collect(),
            q_t: (0..tree.n()).map(|_| rng.uniform(-2.0, 2.0)).collect(),
            q_tt: (0..tree.n()).map(|_| rng.uniform(-3.0, 3.0)).collect(),
        })
        .collect()
}
