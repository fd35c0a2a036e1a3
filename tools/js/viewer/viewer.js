// jointsim offline viewer: source of the bundle that `jointsim view` inlines
// into jointsim/src/viewer/template.html.
//
// Build with `npm run build` in tools/js (see tools/js/README.md); the output is
// jointsim/src/viewer/viewer.js (one minified IIFE, three.js
// inlined). Never edit that output by hand.
//
// Contract with the page (written by Rust from template.html):
//   <script id="scene-glb" type="application/octet-stream">BASE64 .glb</script>
//   #play (button), #time (input range), #time-label, #title, #message
// Scene extras read from the glb (GLTFLoader puts them in gltf.scene.userData):
//   up: [x,y,z]            world up in the model's coordinates (default [0,1,0])
//   bounds: {min, max}     box over the whole motion (default: sampled here)
//   title: string          shown in #title (default: document.title)
//   startTime, endTime     numbers; startTime is added to the displayed time
// Test hooks: window.jointViewer = { ready, duration, setTime(t), play(),
//   pause(), playing, error }, and URL hash `#t=0.25` / `#play`.

import {
  AnimationMixer,
  Box3,
  Color,
  DirectionalLight,
  GridHelper,
  HemisphereLight,
  Object3D,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Sphere,
  Vector3,
  WebGLRenderer,
} from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

const BACKGROUND = 0xf4f4f4;
const FOV_DEG = 35;

// ---------------------------------------------------------------- helpers

function $(id) {
  return document.getElementById(id);
}

function showMessage(text, isError) {
  const el = $('message');
  if (!el) return;
  el.textContent = text;
  el.hidden = !text;
  el.classList.toggle('error', !!isError);
}

function decodeBase64(text) {
  const clean = text.replace(/\s+/g, '');
  if (typeof Uint8Array.fromBase64 === 'function') {
    return Uint8Array.fromBase64(clean);
  }
  const bin = atob(clean);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

function isFiniteVec3(v) {
  return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));
}

function finiteNumber(x, fallback) {
  return typeof x === 'number' && Number.isFinite(x) ? x : fallback;
}

// `#t=0.25`, `#play`, or both: `#t=0.25&play`.
function parseHash() {
  const out = { t: null, play: false };
  const hash = (window.location.hash || '').replace(/^#/, '');
  for (const part of hash.split(/[&;,]/)) {
    if (part === 'play') out.play = true;
    const m = /^t=(.+)$/.exec(part);
    if (m) {
      const t = Number(decodeURIComponent(m[1]));
      if (Number.isFinite(t)) out.t = t;
    }
  }
  return out;
}

// A unit vector perpendicular to `up`, as close as possible to +x (so that +x
// points right on screen), falling back to +y when up is (anti)parallel to x.
function screenRight(up) {
  for (const axis of [new Vector3(1, 0, 0), new Vector3(0, 1, 0)]) {
    const r = axis.clone().addScaledVector(up, -axis.dot(up));
    if (r.lengthSq() > 1e-6) return r.normalize();
  }
  return new Vector3(1, 0, 0);
}

// ---------------------------------------------------------------- viewer

function createViewer() {
  const api = {
    duration: 0,
    playing: false,
    error: null,
    ready: null,
    setTime: () => {},
    play: () => {},
    pause: () => {},
  };
  let resolveReady;
  let rejectReady;
  api.ready = new Promise((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // Keep an unobserved rejection from surfacing twice; errors are reported
  // through console.error and the #message element below.
  api.ready.catch(() => {});
  window.jointViewer = api;

  function fail(err) {
    const msg = 'jointsim viewer: ' + (err && err.message ? err.message : String(err));
    api.error = msg;
    console.error(msg);
    showMessage(msg, true);
    rejectReady(new Error(msg));
  }

  let bytes;
  try {
    const el = $('scene-glb');
    if (!el) throw new Error('no <script id="scene-glb"> element in the page');
    bytes = decodeBase64(el.textContent || '');
    if (bytes.length < 12) throw new Error('the embedded scene is empty');
  } catch (err) {
    fail(err);
    return;
  }

  let renderer;
  try {
    renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  } catch (err) {
    fail(new Error('WebGL is not available: ' + (err && err.message ? err.message : err)));
    return;
  }
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setSize(window.innerWidth, window.innerHeight);
  renderer.setClearColor(BACKGROUND, 1);
  const container = $('viewport') || document.body;
  container.appendChild(renderer.domElement);

  const loader = new GLTFLoader();
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  try {
    loader.parse(buffer, '', (gltf) => {
      try {
        start(gltf, renderer, api, resolveReady);
      } catch (err) {
        fail(err);
      }
    }, (err) => fail(err));
  } catch (err) {
    fail(err);
  }
}

function start(gltf, renderer, api, resolveReady) {
  const extras = gltf.scene.userData || {};
  const scene = new Scene();
  scene.background = new Color(BACKGROUND);
  scene.add(gltf.scene);

  // ---- title
  const title = typeof extras.title === 'string' && extras.title ? extras.title : document.title;
  const titleEl = $('title');
  if (titleEl) titleEl.textContent = title;
  if (typeof extras.title === 'string' && extras.title) document.title = extras.title;

  const startTime = finiteNumber(extras.startTime, 0);

  // ---- animation
  let mixer = null;
  const actions = [];
  let duration = 0;
  if (gltf.animations && gltf.animations.length > 0) {
    mixer = new AnimationMixer(gltf.scene);
    for (const clip of gltf.animations) {
      const action = mixer.clipAction(clip);
      action.play();
      actions.push(action);
      duration = Math.max(duration, clip.duration);
    }
  }
  if (!(duration > 0)) duration = 0;
  api.duration = duration;

  let time = 0;
  // Exact, non-wrapping evaluation of the clips at `t`: with a zero delta the
  // mixer evaluates every action at its own `.time` without looping logic
  // (mixer.setTime(duration) would wrap to 0 with the default LoopRepeat).
  function applyTime(t) {
    time = Math.min(Math.max(finiteNumber(t, 0), 0), duration);
    if (mixer) {
      for (const a of actions) a.time = Math.min(time, a.getClip().duration);
      mixer.update(0);
    }
  }
  applyTime(0);

  // ---- framing: `up`, `bounds`
  const up = isFiniteVec3(extras.up) ? new Vector3().fromArray(extras.up) : new Vector3(0, 1, 0);
  if (up.lengthSq() < 1e-12) up.set(0, 1, 0);
  up.normalize();

  const box = new Box3();
  const b = extras.bounds;
  if (b && isFiniteVec3(b.min) && isFiniteVec3(b.max)) {
    box.min.fromArray(b.min);
    box.max.fromArray(b.max);
  } else {
    // Sample the motion to find a box that holds it all.
    const samples = mixer ? 24 : 0;
    box.setFromObject(gltf.scene);
    for (let i = 1; i <= samples; i++) {
      applyTime((duration * i) / samples);
      gltf.scene.updateMatrixWorld(true);
      box.union(new Box3().setFromObject(gltf.scene));
    }
    applyTime(0);
  }
  if (box.isEmpty()) box.set(new Vector3(-1, -1, -1), new Vector3(1, 1, 1));
  const sphere = box.getBoundingSphere(new Sphere());
  const radius = sphere.radius > 1e-9 ? sphere.radius : 1;
  const centre = sphere.center.clone();

  const camera = new PerspectiveCamera(FOV_DEG, window.innerWidth / window.innerHeight, radius / 100, radius * 100);
  camera.up.copy(up);
  const right = screenRight(up);
  // Looking along `up × right` (for up=z: from −y; for up=y: from +z),
  // raised a little towards `up` and turned a little so depth reads.
  const back = new Vector3().crossVectors(right, up).normalize();
  const elev = (18 * Math.PI) / 180;
  const azim = (12 * Math.PI) / 180;
  const viewDir = back.clone().multiplyScalar(Math.cos(azim))
    .addScaledVector(right, Math.sin(azim))
    .multiplyScalar(Math.cos(elev))
    .addScaledVector(up, Math.sin(elev))
    .normalize();

  function frameDistance() {
    const vHalf = (camera.fov * Math.PI) / 360;
    const hHalf = Math.atan(Math.tan(vHalf) * camera.aspect);
    return (1.08 * radius) / Math.sin(Math.min(vHalf, hHalf));
  }
  camera.position.copy(centre).addScaledVector(viewDir, frameDistance());
  camera.lookAt(centre);
  scene.add(camera);

  // ---- lights: sky/ground fill + a key light that follows the camera
  const hemi = new HemisphereLight(0xffffff, 0x7a7a7a, 1.35);
  hemi.position.copy(up);
  scene.add(hemi);
  const key = new DirectionalLight(0xffffff, 2.0);
  key.position.set(-0.5, 1.0, 1.0); // camera space: from upper left, behind the viewer
  const keyTarget = new Object3D();
  keyTarget.position.set(0, 0, -1);
  camera.add(key);
  camera.add(keyTarget);
  key.target = keyTarget;

  // ---- subtle ground grid under the motion, perpendicular to `up`
  {
    const size = niceSize(radius * 3);
    const grid = new GridHelper(size, 20, 0xb8b8b8, 0xd8d8d8);
    grid.material.transparent = true;
    grid.material.opacity = 0.6;
    grid.material.depthWrite = false;
    grid.renderOrder = -1;
    grid.quaternion.copy(new Quaternion().setFromUnitVectors(new Vector3(0, 1, 0), up));
    // Put it just below the lowest point of the bounds along `up`.
    let lowest = Infinity;
    for (const x of [box.min.x, box.max.x]) {
      for (const y of [box.min.y, box.max.y]) {
        for (const z of [box.min.z, box.max.z]) lowest = Math.min(lowest, up.dot(new Vector3(x, y, z)));
      }
    }
    const pos = centre.clone().addScaledVector(up, lowest - up.dot(centre) - 0.02 * radius);
    grid.position.copy(pos);
    grid.name = 'jointsim-grid';
    scene.add(grid);
  }

  // ---- controls
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(centre);
  controls.enableDamping = true;
  controls.dampingFactor = 0.12;
  controls.update();

  let needsRender = true;
  controls.addEventListener('change', () => {
    needsRender = true;
  });

  function render() {
    renderer.render(scene, camera);
    needsRender = false;
  }

  // ---- UI
  const playBtn = $('play');
  const slider = $('time');
  const label = $('time-label');

  function updateUi() {
    if (slider) slider.value = String(time);
    if (label) label.textContent = 't = ' + (time + startTime).toFixed(3) + ' s';
    if (playBtn) {
      playBtn.classList.toggle('playing', api.playing);
      playBtn.setAttribute('aria-label', api.playing ? 'Pause' : 'Play');
      playBtn.title = api.playing ? 'Pause (space)' : 'Play (space)';
    }
  }

  if (slider) {
    slider.min = '0';
    slider.max = String(duration);
    slider.step = 'any';
    slider.disabled = duration <= 0;
    slider.value = '0';
    const onSlide = () => {
      setTime(Number(slider.value));
    };
    slider.addEventListener('input', onSlide);
    slider.addEventListener('change', onSlide);
    slider.addEventListener('pointerdown', () => pause());
  }
  if (playBtn) {
    playBtn.disabled = duration <= 0;
    playBtn.addEventListener('click', () => (api.playing ? pause() : play()));
  }
  window.addEventListener('keydown', (ev) => {
    if (ev.code === 'Space' && ev.target === document.body) {
      ev.preventDefault();
      if (api.playing) pause();
      else play();
    }
  });

  let lastTick = 0; // performance.now() of the last animation step while playing

  function setTime(t) {
    pause();
    applyTime(t);
    updateUi();
    render();
  }
  function play() {
    if (duration <= 0) return;
    if (time >= duration) applyTime(0);
    api.playing = true;
    lastTick = performance.now();
    updateUi();
    needsRender = true;
  }
  function pause() {
    if (api.playing) {
      api.playing = false;
      updateUi();
    }
  }
  api.setTime = setTime;
  api.play = play;
  api.pause = pause;
  // The current animation time, read-only (for debugging).
  Object.defineProperty(api, 'time', { get: () => time, enumerable: true });

  function onResize() {
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.setSize(window.innerWidth, window.innerHeight);
    camera.aspect = window.innerWidth / Math.max(1, window.innerHeight);
    camera.updateProjectionMatrix();
    needsRender = true;
  }
  window.addEventListener('resize', onResize);
  onResize();

  function frame() {
    requestAnimationFrame(frame);
    if (api.playing) {
      const now = performance.now();
      const dt = Math.max(0, (now - lastTick) / 1000);
      lastTick = now;
      let t = time + dt;
      if (t > duration) t = duration > 0 ? t % duration : 0;
      applyTime(t);
      updateUi();
      needsRender = true;
    }
    if (controls.update()) needsRender = true;
    if (needsRender) render();
  }

  // ---- initial state from the URL hash
  const hash = parseHash();
  if (hash.t !== null) applyTime(hash.t);
  updateUi();
  render();
  if (hash.play) play();

  requestAnimationFrame(() => {
    frame();
    resolveReady(api);
  });
  window.addEventListener('hashchange', () => {
    const h = parseHash();
    if (h.t !== null) setTime(h.t);
    if (h.play) play();
  });
}

function niceSize(x) {
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', createViewer, { once: true });
} else {
  createViewer();
}
