//! MarkerKinematicTreeRigid: a frame on one link of a KinematicTree.

use nalgebra::Vector3;
use std::sync::Arc;

use super::{MarkerResolver, finite};
use crate::assemble::BodyTopology;
use crate::error::{Error, ItemRef, Result};
use crate::items::{Object, ObjectIndex};
use crate::markers::kinematic_tree::KinematicTreeMarker;
use crate::markers::{MarkerModel, ResolvedMarker};

impl MarkerResolver<'_> {
    /// The marker at `local_position` on link `link` of tree `object`: its columns are the
    /// link's and its ancestors' joint coordinates.
    pub(super) fn kinematic_tree(
        &self,
        item: &ItemRef,
        object: ObjectIndex,
        link: usize,
        local_position: &[f64; 3],
    ) -> Result<ResolvedMarker> {
        finite(item, "localPosition", local_position)?;
        let o = self.mbs.object_checked(item, "objectNumber", object)?;
        let Object::KinematicTree { .. } = o else {
            return Err(Error::item(
                item.clone(),
                "objectNumber",
                format!(
                    "object {} is a {}; MarkerKinematicTreeRigid needs a KinematicTree",
                    object.0,
                    o.type_name()
                ),
            ));
        };
        let BodyTopology::KinematicTree { start, data, .. } = self.body_of(object.0) else {
            unreachable!("trees are tree bodies")
        };
        if link >= data.links() {
            return Err(Error::item(
                item.clone(),
                "linkNumber",
                format!(
                    "link {link} does not exist (the tree has {} links)",
                    data.links()
                ),
            ));
        }
        let mut columns = Vec::new();
        let mut j = link as isize;
        while j >= 0 {
            columns.push(start + j as usize);
            j = data.parents[j as usize];
        }
        Ok(ResolvedMarker {
            model: MarkerModel::KinematicTree(Box::new(KinematicTreeMarker {
                tree: Arc::clone(data),
                start: *start,
                link,
                local_position: Vector3::from(*local_position),
            })),
            columns,
            mass: 0.0,
            provides_position: true,
            provides_orientation: true,
            local_rotation: None,
        })
    }
}
