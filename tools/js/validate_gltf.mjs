#!/usr/bin/env node
// Usage: node validate_gltf.mjs [--allow-warnings] FILE.glb
//
// Validates a glTF 2.0 asset (.glb or .gltf) with the Khronos glTF-Validator
// (npm package gltf-validator) and prints a JSON summary of its report:
//   { file, validatorVersion, numErrors, numWarnings, numInfos, numHints,
//     truncated, messages: [{code, severity, pointer, message}], info }
// severity: 0 error, 1 warning, 2 info, 3 hint (as in the validator's report).
// Exit status: 0 when there is no error and no warning (warnings allowed with
// --allow-warnings), 1 otherwise, 2 on a usage or I/O error.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as validator from 'gltf-validator';

const SEVERITY = ['error', 'warning', 'info', 'hint'];

function usage(msg) {
  if (msg) console.error(`validate_gltf: ${msg}`);
  console.error('usage: node validate_gltf.mjs [--allow-warnings] FILE.glb');
  process.exit(2);
}

const args = process.argv.slice(2);
const allowWarnings = args.includes('--allow-warnings');
const files = args.filter((a) => a !== '--allow-warnings');
if (files.length !== 1 || files[0].startsWith('-')) usage();
const file = files[0];

let bytes;
try {
  bytes = new Uint8Array(readFileSync(file));
} catch (err) {
  usage(err.message);
}

let report;
try {
  report = await validator.validateBytes(bytes, {
    uri: basename(file),
    maxIssues: 0, // unlimited
    writeTimestamp: false,
    // External resources (a .gltf's separate .bin / images) are not loaded; a
    // .glb from jointsim has none.
  });
} catch (err) {
  // The promise rejects when the input is not recognisable as glTF/GLB at all.
  console.log(JSON.stringify({ file, error: String(err) }, null, 2));
  process.exit(1);
}

const issues = report.issues || {};
const summary = {
  file,
  validatorVersion: report.validatorVersion,
  numErrors: issues.numErrors ?? 0,
  numWarnings: issues.numWarnings ?? 0,
  numInfos: issues.numInfos ?? 0,
  numHints: issues.numHints ?? 0,
  truncated: !!issues.truncated,
  messages: (issues.messages || []).map((m) => ({
    code: m.code,
    severity: m.severity,
    severityName: SEVERITY[m.severity] ?? String(m.severity),
    pointer: m.pointer ?? (m.offset !== undefined ? `@byte ${m.offset}` : undefined),
    message: m.message,
  })),
  info: report.info,
};
console.log(JSON.stringify(summary, null, 2));
const ok = summary.numErrors === 0 && (allowWarnings || summary.numWarnings === 0);
process.exit(ok ? 0 : 1);
