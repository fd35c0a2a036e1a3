//! Malformed items: every error names the item and the key.

use super::*;

#[test]
fn model_error_broken_json() {
    let e = read_model(r#"{"nodes": [ {"nodeType": "Point"} "#)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("model file") && e.contains("not valid JSON"),
        "{e}"
    );
    let e =
        read_model(r#"{"nodes": [{"nodeType": "Point", "referenceCoordinates": [NaN, 0, 0]}]}"#)
            .unwrap_err()
            .to_string();
    assert!(e.contains("not valid JSON") && e.contains("NaN"), "{e}");
}

#[test]
fn model_error_top_level() {
    let e = read_model("[1, 2]").unwrap_err().to_string();
    assert!(e.contains("top level must be a dictionary"), "{e}");
    expect_error(
        |v| v["bodies"] = json!([]),
        &["unknown top-level key `bodies`"],
    );
    expect_error(
        |v| v["objects"] = json!({}),
        &["`objects` must be an array"],
    );
    expect_error(|v| v["solve"] = json!("eigen"), &["`solve`", "\"eigen\""]);
    expect_error(
        |v| v["markers"][1] = json!(3),
        &["markers[1]", "expected a dictionary"],
    );
}

#[test]
fn model_error_unknown_item_type() {
    expect_error(
        |v| v["objects"][2]["objectType"] = json!("JointRevolute"),
        &[
            "objects[2] (JointRevolute)",
            "`objectType`",
            "unknown or unsupported object type",
        ],
    );
    expect_error(
        |v| v["nodes"][0]["nodeType"] = json!("Point3DSlope1"),
        &["nodes[0] (Point3DSlope1)", "`nodeType`"],
    );
    expect_error(
        |v| v["markers"][0]["markerType"] = json!(7),
        &["markers[0] (?)", "`markerType`", "expected a type string"],
    );
    expect_error(
        |v| {
            v["loads"][0].as_object_mut().unwrap().remove("loadType");
        },
        &["loads[0] (?)", "`loadType`", "missing"],
    );
}

#[test]
fn model_error_unknown_item_key() {
    expect_error(
        |v| v["objects"][2]["constrainedAxis"] = json!([1, 1, 1]),
        &[
            "objects[2] (JointSpherical)",
            "`constrainedAxis`",
            "unknown key",
            "constrainedAxes",
        ],
    );
    // a key of another item type
    expect_error(
        |v| v["markers"][1]["nodeNumber"] = json!(0),
        &["markers[1] (BodyPosition)", "`nodeNumber`", "unknown key"],
    );
    // SensorLoad has no outputVariableType
    expect_error(
        |v| {
            v["sensors"][1] =
                json!({"sensorType": "Load", "loadNumber": 0, "outputVariableType": "Force"})
        },
        &["sensors[1] (Load)", "`outputVariableType`", "unknown key"],
    );
}

#[test]
fn model_error_wrong_value_type() {
    expect_error(
        |v| v["objects"][1]["mass"] = json!("10"),
        &[
            "objects[1] (RigidBody)",
            "`mass`",
            "expected a number",
            "the string \"10\"",
        ],
    );
    expect_error(
        |v| v["objects"][2]["activeConnector"] = json!(1),
        &[
            "objects[2] (JointSpherical)",
            "`activeConnector`",
            "expected true or false",
        ],
    );
    expect_error(
        |v| v["sensors"][0]["outputVariableType"] = json!("Positio"),
        &["sensors[0] (Node)", "`outputVariableType`", "Positio"],
    );
    expect_error(
        |v| v["sensors"][0]["fileName"] = json!(null),
        &["sensors[0] (Node)", "`fileName`", "expected a string"],
    );
    expect_error(
        |v| v["nodes"][0]["name"] = json!(3),
        &["nodes[0] (RigidBodyEP)", "`name`", "expected a string"],
    );
}

#[test]
fn model_error_bad_item_numbers() {
    expect_error(
        |v| v["objects"][2]["markerNumbers"] = json!([1, -2]),
        &[
            "objects[2] (JointSpherical)",
            "`markerNumbers`",
            "element 1",
            "non-negative integer",
        ],
    );
    expect_error(
        |v| v["objects"][2]["markerNumbers"] = json!([1.5, 2]),
        &[
            "objects[2] (JointSpherical)",
            "`markerNumbers`",
            "element 0",
            "1.5",
        ],
    );
    expect_error(
        |v| v["objects"][2]["markerNumbers"] = json!([1, 2, 3]),
        &[
            "objects[2] (JointSpherical)",
            "`markerNumbers`",
            "array of 2",
        ],
    );
    expect_error(
        |v| v["loads"][0]["markerNumber"] = json!(-1),
        &[
            "loads[0] (MassProportional)",
            "`markerNumber`",
            "non-negative",
        ],
    );
    expect_error(
        |v| {
            v["objects"][1]
                .as_object_mut()
                .unwrap()
                .remove("nodeNumber");
        },
        &["objects[1] (RigidBody)", "`nodeNumber`", "missing"],
    );
}

#[test]
fn model_error_user_function_set() {
    expect_error(
        |v| v["loads"][0]["loadVectorUserFunction"] = json!("<function UFload>"),
        &[
            "loads[0] (MassProportional)",
            "`loadVectorUserFunction`",
            "user functions are not supported",
        ],
    );
    expect_error(
        |v| v["objects"][0]["VgraphicsDataUserFunction"] = json!(1),
        &[
            "objects[0] (Ground)",
            "`VgraphicsDataUserFunction`",
            "user functions are not supported",
        ],
    );
    expect_error(
        |v| {
            v["objects"][2] = json!({"objectType": "ConnectorSpringDamper", "markerNumbers": [1, 2],
                                     "springForceUserFunction": "UFspring"})
        },
        &[
            "objects[2] (ConnectorSpringDamper)",
            "`springForceUserFunction`",
            "not supported",
        ],
    );
}

/// ObjectConnectorRigidBodySpringDamper's keys: its 6 × 6 matrices, its two user functions,
/// and the deprecated `intrinsicFormulation` contradicting `useIntrinsicFormulation`.
#[test]
fn model_error_rigid_body_spring_damper() {
    let rbsd = |extra: Value| {
        let mut o =
            json!({"objectType": "ConnectorRigidBodySpringDamper", "markerNumbers": [1, 2]});
        for (k, x) in extra.as_object().unwrap() {
            o[k] = x.clone();
        }
        o
    };
    expect_error(
        |v| v["objects"][2] = rbsd(json!({"stiffness": [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0]]})),
        &[
            "objects[2] (ConnectorRigidBodySpringDamper)",
            "`stiffness`",
            "array of 6 rows",
        ],
    );
    expect_error(
        |v| v["objects"][2] = rbsd(json!({ "damping": vec![vec![0.0; 5]; 6] })),
        &[
            "objects[2] (ConnectorRigidBodySpringDamper)",
            "`damping`",
            "6 numbers",
        ],
    );
    for key in [
        "springForceTorqueUserFunction",
        "postNewtonStepUserFunction",
    ] {
        expect_error(
            |v| {
                v["objects"][2] = rbsd(json!({}));
                v["objects"][2][key] = json!("<function UF>");
            },
            &[
                "objects[2] (ConnectorRigidBodySpringDamper)",
                key,
                "user functions are not supported",
            ],
        );
    }
    expect_error(
        |v| {
            v["objects"][2] =
                rbsd(json!({"useIntrinsicFormulation": true, "intrinsicFormulation": false}))
        },
        &[
            "objects[2] (ConnectorRigidBodySpringDamper)",
            "`intrinsicFormulation`",
            "deprecated name of useIntrinsicFormulation",
        ],
    );
}

#[test]
fn model_error_wrong_vector_length() {
    expect_error(
        |v| v["nodes"][0]["referenceCoordinates"] = json!([0.5, 0, 0, 1, 0, 0]),
        &[
            "nodes[0] (RigidBodyEP)",
            "`referenceCoordinates`",
            "array of 7 numbers",
            "length 6",
        ],
    );
    expect_error(
        |v| v["objects"][1]["inertia"] = json!([1, 1, 1]),
        &["objects[1] (RigidBody)", "`inertia`", "array of 6 numbers"],
    );
    expect_error(
        |v| v["objects"][0]["referenceRotation"] = json!([[1, 0, 0], [0, 1, 0]]),
        &[
            "objects[0] (Ground)",
            "`referenceRotation`",
            "array of 3 rows",
        ],
    );
    expect_error(
        |v| v["markers"][2]["localPosition"] = json!([-0.5, 0, "0"]),
        &[
            "markers[2] (BodyPosition)",
            "`localPosition`",
            "element 2",
            "expected a number",
        ],
    );
    expect_error(
        |v| v["objects"][2]["Vcolor"] = json!([1, 0, 0]),
        &[
            "objects[2] (JointSpherical)",
            "`Vcolor`",
            "array of 4 numbers",
        ],
    );
}

#[test]
fn model_error_bad_constrained_axes() {
    expect_error(
        |v| v["objects"][2]["constrainedAxes"] = json!([1, "1", 1]),
        &[
            "objects[2] (JointSpherical)",
            "`constrainedAxes`",
            "element 1",
            "expected an integer",
        ],
    );
    expect_error(
        |v| v["objects"][2]["constrainedAxes"] = json!([1, 0.5, 1]),
        &[
            "objects[2] (JointSpherical)",
            "`constrainedAxes`",
            "expected an integer",
        ],
    );
    expect_error(
        |v| v["objects"][2]["constrainedAxes"] = json!(true),
        &[
            "objects[2] (JointSpherical)",
            "`constrainedAxes`",
            "array of 3 integers",
        ],
    );
}

#[test]
fn model_error_derived_keys_disagree() {
    expect_error(
        |v| v["objects"][0]["referenceHT"][0][3] = json!(0.5),
        &["objects[0] (Ground)", "`referenceHT`", "must agree"],
    );
    expect_error(
        |v| {
            v["markers"][2] = json!({"markerType": "BodyRigid", "bodyNumber": 1, "localPosition": [-0.5, 0, 0],
                                     "localHT": [[1, 0, 0, 0.5], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]})
        },
        &[
            "markers[2] (BodyRigid)",
            "`localHT`",
            "must equal localPosition",
        ],
    );
}

/// MarkerNodeRotationCoordinate: the index 0..2 and a node with a 3-D rotation (or ground), as
/// Exudyn checks them; on the EP node it reads and assembles.
#[test]
fn model_error_rotation_coordinate_marker() {
    let marker = |index: Value| json!({"markerType": "NodeRotationCoordinate", "nodeNumber": 0, "rotationCoordinate": index});
    let mut v = base();
    v["markers"].as_array_mut().unwrap().push(marker(json!(2)));
    read(&v).unwrap().mbs.assemble().unwrap();
    expect_error(
        |v| v["markers"].as_array_mut().unwrap().push(marker(json!(3))),
        &[
            "markers[3] (NodeRotationCoordinate)",
            "`rotationCoordinate`",
            "expected 0, 1 or 2",
        ],
    );
    expect_error(
        |v| v["markers"].as_array_mut().unwrap().push(marker(json!(-1))),
        &[
            "markers[3] (NodeRotationCoordinate)",
            "`rotationCoordinate`",
        ],
    );
    let mut v = base();
    v["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"nodeType": "Point"}));
    let mut on_point = marker(json!(0));
    on_point["nodeNumber"] = json!(1);
    v["markers"].as_array_mut().unwrap().push(on_point);
    let e = read(&v).unwrap().mbs.assemble().unwrap_err().to_string();
    for needle in [
        "markers[3] (NodeRotationCoordinate)",
        "`nodeNumber`",
        "node 1 is a Point, which has no 3-D rotation",
    ] {
        assert!(
            e.contains(needle),
            "error `{e}` does not contain `{needle}`"
        );
    }
}

/// A connector family's errors (ObjectConnectorCoordinateSpringDamperExt): its keys read
/// strictly, its data node and its values checked at assemble, each naming item and key.
#[test]
fn model_error_coordinate_spring_damper_ext() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/reference/own_cases/coordinate_spring_damper_ext_limit_stops.json"
    );
    let base: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let read_error = |edit: &dyn Fn(&mut Value), needles: &[&str]| {
        let mut v = base.clone();
        edit(&mut v);
        let e = read(&v).expect_err("refused").to_string();
        for n in needles {
            assert!(e.contains(n), "error `{e}` does not contain `{n}`");
        }
    };
    let assemble_error = |edit: &dyn Fn(&mut Value), needles: &[&str]| {
        let mut v = base.clone();
        edit(&mut v);
        let e = read(&v)
            .unwrap()
            .mbs
            .assemble()
            .expect_err("refused")
            .to_string();
        for n in needles {
            assert!(e.contains(n), "error `{e}` does not contain `{n}`");
        }
    };
    read(&base).unwrap().mbs.assemble().unwrap();
    read_error(
        &|v| v["objects"][2]["stifness"] = json!(1.0),
        &[
            "objects[2] (ConnectorCoordinateSpringDamperExt)",
            "stifness",
        ],
    );
    read_error(
        &|v| v["objects"][2]["fDynamicFriction"] = json!(1.0),
        &["objects[2]", "`fDynamicFriction`", "dynamicFrictionForce"],
    );
    read_error(
        &|v| v["objects"][2]["springForceUserFunction"] = json!("user function"),
        &["objects[2]", "springForceUserFunction"],
    );
    // the deprecated 1.11 name alone is read
    let mut old = base.clone();
    let f = old["objects"][3]["dynamicFrictionForce"].take();
    old["objects"][3]
        .as_object_mut()
        .unwrap()
        .remove("dynamicFrictionForce");
    old["objects"][3]["fDynamicFriction"] = f;
    read(&old).unwrap().mbs.assemble().unwrap();
    assemble_error(
        &|v| v["objects"][2]["nodeNumber"] = json!(-1),
        &[
            "objects[2] (ConnectorCoordinateSpringDamperExt)",
            "`nodeNumber`",
            "useLimitStops is True",
        ],
    );
    assemble_error(
        &|v| v["objects"][2]["nodeNumber"] = json!(1),
        &["objects[2]", "`nodeNumber`", "in a NodeGenericData"],
    );
    assemble_error(
        &|v| {
            v["nodes"][3]["initialCoordinates"] = json!([0.0, 0.0]);
            v["nodes"][3]["numberOfDataCoordinates"] = json!(2);
        },
        &[
            "objects[2]",
            "has 2 data coordinates; the connector keeps 3",
        ],
    );
    assemble_error(
        &|v| v["objects"][2]["factor1"] = json!(0.0),
        &["objects[2]", "`factor1`", "may not be zero"],
    );
    assemble_error(
        &|v| v["objects"][3]["stickingStiffness"] = json!(0.0),
        &["objects[3]", "`stickingStiffness`", "may not be zero"],
    );
    assemble_error(
        &|v| v["objects"][2]["markerNumbers"] = json!([0, 9]),
        &["objects[2]", "`markerNumbers`"],
    );
}
