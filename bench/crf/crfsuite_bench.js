// The CRFsuite side of bench/crf/run: trains CRFsuite (npm's crfsuite@1.0.1,
// its Node binding of the C library) on the items of train.crfsuite and tags
// those of dev.crfsuite, both in CRFsuite's data format as benchcrf dump
// writes them (every attribute of value 1, which the binding cannot pass
// anyway), with c2 and CRFsuite's default stopping rule. CRFsuite's
// per-iteration log (debug) goes to standard output as it trains; the last
// line is one JSON object: iterations, training and per-iteration seconds,
// tagging seconds and tokens per second, and the token accuracy.
//
//	node crfsuite_bench.js DIR [C2]
'use strict';
const fs = require('fs');
const path = require('path');
const { Trainer, Tagger } = require('crfsuite');

function read(file) {
  const seqs = [];
  let xs = [], ys = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line === '') {
      if (xs.length > 0) seqs.push({ xs, ys });
      xs = []; ys = [];
      continue;
    }
    const fields = line.split('\t');
    ys.push(fields[0]);
    xs.push(fields.slice(1).map((f) => f.replace(/\\([:\\])/g, '$1')));
  }
  if (xs.length > 0) seqs.push({ xs, ys });
  return seqs;
}

const dir = process.argv[2];
const c2 = process.argv[3] || '1';
const train = read(path.join(dir, 'train.crfsuite'));
const dev = read(path.join(dir, 'dev.crfsuite'));
const modelFile = path.join(dir, 'crfsuite.model');
const trainer = new Trainer({ debug: true });
for (const s of train) trainer.append(s.xs, s.ys);
trainer.set_params({ c1: '0', c2: c2 });
let t0 = process.hrtime.bigint();
trainer.train(modelFile);
const trainSec = Number(process.hrtime.bigint() - t0) / 1e9;
const tagger = new Tagger();
tagger.open(modelFile);
let correct = 0, tokens = 0;
t0 = process.hrtime.bigint();
// tag() returns the array of tags (index.d.ts declares {probability, result}).
const results = dev.map((s) => { const r = tagger.tag(s.xs); return Array.isArray(r) ? r : r.result; });
const tagSec = Number(process.hrtime.bigint() - t0) / 1e9;
dev.forEach((s, i) => s.ys.forEach((y, t) => { tokens++; if (results[i][t] === y) correct++; }));
console.log(JSON.stringify({ train_seconds: trainSec, tag_seconds: tagSec, tokens_per_second: tokens / tagSec,
  dev_tokens: tokens, accuracy: correct / tokens }));
