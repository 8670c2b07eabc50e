// Runs the HTML handout's script outside a browser, for HTMLWhyLinesTests: node page_in_node.js RUN.json
// SCRIPT.js OUT.json writes, for every position 0...N of the slider, each added operation's state and
// why line as the page shows them (`opsview.whysAt`). Every DOM call the script makes lands on an
// inert stub, except the embedded run, read from RUN.json, and the picture, left out.
const fs = require("fs");
const json = fs.readFileSync(process.argv[2], "utf8");
function stub() {
  const f = function () { return stub(); };
  return new Proxy(f, {
    get(t, k) {
      if (k === Symbol.iterator) return function* () {};
      if (k === Symbol.toPrimitive) return () => 0;
      if (k === "length") return 0;
      if (k in t && k !== "name") return t[k];
      return stub();
    },
    set(t, k, v) { t[k] = v; return true; },
    apply() { return stub(); },
  });
}
const run = stub(); run.textContent = json;
const picture = stub(); picture.content = { querySelector: () => null };
globalThis.document = new Proxy(stub(), { get(t, k) {
  if (k === "getElementById") return id => id === "run" ? run : id === "picture" ? picture : stub();
  return t[k]; } });
globalThis.window = globalThis;
globalThis.requestAnimationFrame = () => 0;
globalThis.setTimeout = () => 0;
eval(fs.readFileSync(process.argv[3], "utf8"));
const out = [];
for (let k = 0; k <= opsview.events; k++) out.push(opsview.whysAt(k));
fs.writeFileSync(process.argv[4], JSON.stringify(out));
