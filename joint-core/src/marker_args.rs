//! One marker's inputs to a pairing kernel.

/// One marker's inputs as slices: its kind's constant parameters
/// ([`MarkerKind::parameter_names`](crate::MarkerKind::parameter_names)), the total coordinates
/// of its node ([`MarkerKind::coordinate_names`](crate::MarkerKind::coordinate_names)) and their
/// velocities. Lengths must be the pairing's [`Pairing::parameters`](crate::Pairing::parameters)
/// and [`Pairing::coordinates`](crate::Pairing::coordinates); a kernel given other lengths
/// returns `None` and writes nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarkerArgs<'a> {
    /// The kind's constant parameters.
    pub parameters: &'a [f64],
    /// The node's total coordinates.
    pub coordinates: &'a [f64],
    /// Their velocities.
    pub velocities: &'a [f64],
}
