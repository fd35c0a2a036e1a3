//! The section and length data of Exudyn's ObjectBeamGeometricallyExact2D.

/// ObjectBeamGeometricallyExact2D's parameters (SI units), Exudyn's names in the docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Beam2D {
    /// `physicsLength` L: the reference length.
    pub length: f64,
    /// `physicsMassPerLength` ρA.
    pub mass_per_length: f64,
    /// `physicsCrossSectionInertia` ρJ: rotational inertia per length.
    pub cross_section_inertia: f64,
    /// `physicsBendingStiffness` EI.
    pub bending_stiffness: f64,
    /// `physicsAxialStiffness` EA.
    pub axial_stiffness: f64,
    /// `physicsShearStiffness` GA (shear correction included).
    pub shear_stiffness: f64,
    /// `physicsBendingDamping`: damping of the curvature rate.
    pub bending_damping: f64,
    /// `physicsAxialDamping`: damping of the axial strain rate.
    pub axial_damping: f64,
    /// `physicsShearDamping`: damping of the shear strain rate.
    pub shear_damping: f64,
    /// `physicsReferenceCurvature`: the curvature of the stress-free beam.
    pub reference_curvature: f64,
    /// `includeReferenceRotations`: the nodes' reference angles are the beam's (else the
    /// reference slope gives its angle and the nodes' reference angles are ignored).
    pub include_reference_rotations: bool,
}

impl Beam2D {
    /// The parameters with their values, for the checks (`(key, value)`).
    pub fn values(&self) -> [(&'static str, f64); 10] {
        [
            ("physicsLength", self.length),
            ("physicsMassPerLength", self.mass_per_length),
            ("physicsCrossSectionInertia", self.cross_section_inertia),
            ("physicsBendingStiffness", self.bending_stiffness),
            ("physicsAxialStiffness", self.axial_stiffness),
            ("physicsShearStiffness", self.shear_stiffness),
            ("physicsBendingDamping", self.bending_damping),
            ("physicsAxialDamping", self.axial_damping),
            ("physicsShearDamping", self.shear_damping),
            ("physicsReferenceCurvature", self.reference_curvature),
        ]
    }
}
