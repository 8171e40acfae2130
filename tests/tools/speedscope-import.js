// node speedscope-import.js BUNDLE FILE: load FILE with the importer of
// speedscope's release bundle (BUNDLE: speedscope-*.js of the npm package
// speedscope, dist/release), as its "open file" does, and print what it
// made: the profile group's name and, a line a profile (one per thread),
// its name, its frame count and its total weight.  The bundle is a
// browser program: it runs in a context of its own with the few browser
// names it touches at load time stubbed, and its importer
// (importProfileGroupFromText, whose name the minifier keeps) is reached
// by the wrapper function that calls it.  Exit status 1 when it imports
// nothing, 2 when the bundle's importer cannot be found.
'use strict';
const fs = require('fs');
const vm = require('vm');
const path = require('path');

const [bundle, file] = process.argv.slice(2);
let src = fs.readFileSync(bundle, 'utf8');
const m = /async function (\w+)\((\w+),(\w+)\)\{return\(await \w+\)\.importProfileGroupFromText\(/.exec(src);
const head = '"use strict";(()=>{';
if (!m || !src.startsWith(head)) {
	console.error('speedscope-import: no importProfileGroupFromText in ' +
	    bundle);
	process.exit(2);
}
src = head + 'globalThis.__importText=' + m[1] + ';' + src.slice(head.length);
const warnings = [];
const stub = () => new Proxy(function () {}, {
	get: (t, k) => k === Symbol.toPrimitive ? () => '' : stub(),
	apply: () => stub(),
	construct: () => stub(),
});
const ctx = {
	console: { log() {}, warn: (s) => warnings.push(String(s)),
	    error() {}, info() {} },
	setTimeout, clearTimeout, Promise, TextDecoder, TextEncoder,
	URL, performance, queueMicrotask,
	document: stub(), navigator: { userAgent: 'node' },
	location: { hash: '', search: '', href: 'file:///' },
	requestAnimationFrame: () => 0, addEventListener() {},
};
ctx.window = ctx;
ctx.self = ctx;
ctx.globalThis = ctx;
vm.createContext(ctx);
try {
	vm.runInContext(src, ctx, { filename: path.basename(bundle) });
} catch (e) {
	// The user interface needs a real DOM; the importer does not.
}
if (typeof ctx.__importText !== 'function') {
	console.error('speedscope-import: the bundle did not load');
	process.exit(2);
}
ctx.__importText(path.basename(file), fs.readFileSync(file, 'utf8'))
    .then((g) => {
	if (!g || !g.profiles || g.profiles.length === 0) {
		console.log('nothing imported');
		process.exit(1);
	}
	console.log(`profiles ${g.profiles.length}`);
	for (const p of g.profiles) {
		let frames = 0;
		p.forEachFrame(() => frames++);
		console.log(`${p.getName()}\t${frames}\t${p.getTotalWeight()}`);
	}
	console.log(`warnings ${warnings.length}`);
    }, (e) => {
	console.error('speedscope-import: ' + e);
	process.exit(1);
    });
