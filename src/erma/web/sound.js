// Sound effects synthesised with the Web Audio API (no sound files). Muting is remembered ("erma.mute").
// The audio context is created on the first user gesture only, so the browser never blocks or warns.

let ctx = null;
let muted = localStorage.getItem("erma.mute") === "1";

export function isMuted() {
  return muted;
}

export function setMuted(value) {
  muted = Boolean(value);
  localStorage.setItem("erma.mute", muted ? "1" : "0");
}

/** Call from a click handler: creates (or resumes) the audio context. */
export function unlock() {
  if (muted) return;
  try {
    if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === "suspended") ctx.resume();
  } catch {
    ctx = null;
  }
}

function ready() {
  return !muted && ctx && ctx.state === "running";
}

/** One enveloped oscillator note. */
function tone(freq, start, dur, { type = "sine", gain = 0.2, slide = 0 } = {}) {
  const t0 = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const g = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slide) osc.frequency.exponentialRampToValueAtTime(Math.max(20, freq + slide), t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(g).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.05);
}

/** A short filtered noise burst: the click of a tile on the table. */
function clack(start = 0, { freq = 2400, dur = 0.06, gain = 0.35 } = {}) {
  const t0 = ctx.currentTime + start;
  const len = Math.floor(ctx.sampleRate * dur);
  const buf = ctx.createBuffer(1, len, ctx.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 3;
  const src = ctx.createBufferSource();
  src.buffer = buf;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = 1.2;
  const g = ctx.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(ctx.destination);
  src.start(t0);
}

const EFFECTS = {
  draw: () => clack(0, { freq: 3200, dur: 0.04, gain: 0.18 }),
  discard: () => {
    clack(0, { freq: 1800, dur: 0.08, gain: 0.45 });
    tone(180, 0, 0.08, { type: "triangle", gain: 0.08 });
  },
  select: () => tone(880, 0, 0.05, { type: "triangle", gain: 0.06 }),
  chow: () => {
    tone(523, 0, 0.12, { type: "square", gain: 0.07 });
    tone(659, 0.09, 0.16, { type: "square", gain: 0.07 });
  },
  pung: () => {
    clack(0, { freq: 1500, gain: 0.4 });
    tone(392, 0, 0.1, { type: "square", gain: 0.08 });
    tone(392, 0.1, 0.1, { type: "square", gain: 0.08 });
    tone(587, 0.2, 0.2, { type: "square", gain: 0.08 });
  },
  kong: () => {
    for (let i = 0; i < 4; i++) clack(i * 0.07, { freq: 1400 + i * 200, gain: 0.35 });
    tone(196, 0.28, 0.35, { type: "sawtooth", gain: 0.07, slide: 200 });
  },
  riichi: () => {
    tone(660, 0, 0.12, { type: "triangle", gain: 0.15 });
    tone(990, 0.1, 0.3, { type: "triangle", gain: 0.15 });
  },
  win: () => {
    const notes = [523, 659, 784, 1047, 784, 1047, 1319];
    notes.forEach((f, i) => tone(f, i * 0.09, 0.22, { type: "triangle", gain: 0.14 }));
    tone(131, 0, 0.8, { type: "sawtooth", gain: 0.05 });
  },
  lose: () => {
    [392, 370, 349, 262].forEach((f, i) => tone(f, i * 0.18, 0.3, { type: "sawtooth", gain: 0.06 }));
  },
  draw_game: () => {
    tone(440, 0, 0.25, { type: "sine", gain: 0.1, slide: -200 });
  },
  cuo: () => {
    for (let i = 0; i < 6; i++) tone(1200 + i * 180, i * 0.04, 0.12, { type: "sine", gain: 0.08 });
  },
  exchange: () => {
    tone(300, 0, 0.3, { type: "sine", gain: 0.12, slide: 600 });
    clack(0.25, { freq: 2000, gain: 0.2 });
  },
  triplet: () => {
    [784, 988, 1175].forEach((f, i) => tone(f, i * 0.08, 0.2, { type: "square", gain: 0.06 }));
  },
  haidi: () => {
    tone(110, 0, 0.6, { type: "sine", gain: 0.25, slide: -40 });
    for (let i = 0; i < 5; i++) tone(600 + i * 120, 0.15 + i * 0.07, 0.2, { type: "sine", gain: 0.05 });
  },
  tick: () => tone(1000, 0, 0.03, { type: "square", gain: 0.04 }),
  start: () => {
    [392, 523, 659].forEach((f, i) => tone(f, i * 0.07, 0.15, { type: "triangle", gain: 0.1 }));
  },
  error: () => tone(200, 0, 0.15, { type: "square", gain: 0.05 }),
};

/** Play an effect by name (nothing when muted or before the first gesture). */
export function play(name) {
  if (!ready() || !EFFECTS[name]) return;
  try {
    EFFECTS[name]();
  } catch {
    // sound is decoration: never let it break the game
  }
}
