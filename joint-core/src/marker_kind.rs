//! Marker kinds and capabilities, emitted from the compiler's own tables.

joint_macros::marker_kind_types!();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_through_their_names_and_indices() {
        for (i, k) in MarkerKind::ALL.into_iter().enumerate() {
            assert_eq!(k.index(), i);
            assert_eq!(MarkerKind::from_name(k.name()), Some(k));
        }
        assert_eq!(MarkerKind::from_name("Rigid"), None);
        assert!(MarkerKind::GroundPoint.provides(Capability::Rigid));
        assert!(!MarkerKind::MassPointBody.provides(Capability::Rigid));
        assert_eq!(MarkerKind::RigidEpPoint.coordinate_count(), 7);
        assert_eq!(MarkerKind::GroundPoint.parameter_count(), 12);
    }
}
