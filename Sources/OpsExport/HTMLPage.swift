/// The HTML handout's page: markup, styles and the script that replays the embedded run. Plain
/// strings, so the package needs no resources; nothing here comes from a scenario or a recording
/// (those are only in the JSON the writer embeds, read with JSON.parse and shown with textContent).
enum HTMLPage {
  static let head = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">

    """

  static let style = #"""
    :root{--bg:#fff;--fg:#1b1f23;--mute:#5f6b76;--line:#d6dce1;--panel:#f5f7f9;--accent:#0b63c4;
    --s-initialized:#9e9e9e;--s-pending:#b0bec5;--s-evaluatingConditions:#ce93d8;--s-ready:#ffd54f;
    --s-executing:#43a047;--s-finishing:#81c784;--s-finished:#1e88e5;--warn:#b45309}
    @media (prefers-color-scheme:dark){:root{--bg:#111417;--fg:#e6e9ec;--mute:#9aa6b2;--line:#2c333a;
    --panel:#1a1f24;--accent:#6cb2ff;--s-pending:#607d8b;--s-ready:#c9a227;--s-finished:#4f8fd6;--warn:#f0a35e}}
    *{box-sizing:border-box}
    body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg)}
    header{padding:.6rem 1rem;border-bottom:1px solid var(--line)}
    h1{font-size:1.15rem;margin:0}
    h2{font-size:.95rem;margin:.2rem 0 .4rem}
    .lesson{color:var(--mute);margin:.3rem 0 0;white-space:pre-wrap;max-height:6.5em;overflow:auto}
    .controls{position:sticky;top:0;z-index:2;background:var(--bg);display:flex;flex-wrap:wrap;gap:.4rem;
    align-items:center;padding:.5rem 1rem;border-bottom:1px solid var(--line)}
    button,select{font:inherit;padding:.25rem .6rem;border:1px solid var(--line);border-radius:4px;
    background:var(--panel);color:var(--fg);cursor:pointer}
    button:focus-visible,select:focus-visible,input:focus-visible,tr:focus-visible,li:focus-visible,
    [tabindex]:focus-visible{outline:3px solid var(--accent);outline-offset:1px}
    #slider{flex:1 1 14rem;min-width:10rem}
    #clock{font-variant-numeric:tabular-nums;min-width:12ch}
    main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1rem;padding:1rem}
    section{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;min-width:0}
    .wide{grid-column:1/-1}
    table{border-collapse:collapse;width:100%}
    th,td{text-align:left;padding:.2rem .4rem;border-bottom:1px solid var(--line);vertical-align:top}
    th{font-weight:600;color:var(--mute);font-size:.85rem}
    tbody tr{cursor:pointer}
    tr[aria-selected=true]{background:color-mix(in srgb,var(--accent) 18%,transparent)}
    tr.hover{background:color-mix(in srgb,var(--accent) 9%,transparent)}
    #sel .why{margin:.3rem 0 0}
    .pointed{margin:.2rem 0;height:1.4em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
    .st{display:inline-block;padding:0 .35rem;border-radius:3px;color:#000;white-space:nowrap}
    .why{color:var(--mute)}
    .s-initialized{background:var(--s-initialized)}.s-pending{background:var(--s-pending)}
    .s-evaluatingConditions{background:var(--s-evaluatingConditions)}.s-ready{background:var(--s-ready)}
    .s-executing{background:var(--s-executing)}.s-finishing{background:var(--s-finishing)}
    .s-finished{background:var(--s-finished)}
    .flags{font-family:ui-monospace,monospace;font-size:.8rem}
    .warn{color:var(--warn)}
    #log{font-family:ui-monospace,monospace;font-size:.8rem;margin:0;padding-left:1.2rem}
    #log li.now{font-weight:700}
    .machine{display:flex;flex-wrap:wrap;gap:.25rem;align-items:center;margin:.3rem 0}
    .machine span.box{border:2px solid var(--line);border-radius:4px;padding:.1rem .35rem;font-size:.8rem}
    .machine span.visited{border-color:var(--fg)}
    .machine span.current{outline:3px solid var(--accent)}
    .machine span.arrow{color:var(--mute)}
    #path{margin:0;padding-left:1.2rem;font-size:.85rem}
    #caption{border-left:4px solid var(--accent);padding:.4rem .6rem;background:var(--bg);margin:.3rem 0}
    #caption[hidden]{display:none}
    #chapters{margin:0;padding-left:1.2rem}
    #chapters li{cursor:pointer}
    #chapters li.current{font-weight:700}
    .claims{margin:.3rem 0 0;padding-left:1.2rem;color:var(--mute)}
    #quiz fieldset{border:1px solid var(--line);border-radius:4px}
    .right{color:#2e7d32}.wrong{color:#c62828}
    #timeline{width:100%;overflow-x:auto}
    #timeline svg{display:block}
    #timeline svg{background:#fff;color:#000;border-radius:4px}
    #timeline g[data-row]:hover>*{opacity:.75}
    #timeline g.sel>text{font-weight:700;fill:#0b63c4}
    .note{color:var(--mute);font-size:.85rem}
    code{font-family:ui-monospace,monospace;font-weight:700;font-size:.92em}
    .sr{position:absolute;left:-9999px}
    @media (max-width:700px){main{grid-template-columns:1fr;padding:.5rem}
    #ops thead{display:none}#ops tr{display:block;border-bottom:1px solid var(--line);padding:.3rem 0}
    #ops td{display:inline-block;border:0;padding:.1rem .3rem}#ops td.why{display:block}
    .controls{padding:.4rem .5rem}}
    @media print{.controls,#quiz{display:none}.lesson{max-height:none;overflow:visible}main{display:block}section{break-inside:avoid;margin-bottom:.6rem}
    body{background:#fff;color:#000}}

    """#

  static let body = #"""
    <body>
    <header><h1 id="title"></h1><p class="lesson" id="lesson"></p></header>
    <div class="controls" role="toolbar" aria-label="Replay controls">
    <button id="play" aria-label="Play (Space)">▶ Play</button>
    <label>speed <select id="speed" aria-label="Speed"><option value="0.5">0.5×</option><option value="1" selected>1×</option><option value="2">2×</option><option value="5">5×</option><option value="20">20×</option></select></label>
    <button id="first" aria-label="Go to the start (Home)">start</button>
    <button id="prevMoment" aria-label="Previous moment (Shift+M)">⟨ moment</button>
    <button id="back" aria-label="Back one event (←)">◀ event</button>
    <button id="step" aria-label="Next event (. or →)">event ▶</button>
    <button id="nextMoment" aria-label="Next moment (m)">moment ⟩</button>
    <button id="last" aria-label="Go to the end (End)">end</button>
    <input id="slider" type="range" min="0" value="0" aria-label="Events shown">
    <span id="clock" role="status" aria-live="polite"></span>
    </div>
    <main>
    <section class="wide" id="moment-section" aria-labelledby="h-moment"><h2 id="h-moment">Moments</h2>
    <div id="caption" role="note" aria-live="polite" hidden></div>
    <ol id="chapters"></ol><p class="note" id="nomoments" hidden>This run has no teaching moments.</p></section>
    <section class="wide" id="quiz" aria-labelledby="h-quiz"><h2 id="h-quiz">Quiz</h2><div id="quizbody"></div></section>
    <section id="ops-section" aria-labelledby="h-ops"><h2 id="h-ops">Operations</h2>
    <table id="ops" role="grid" aria-readonly="true" aria-labelledby="h-ops"><thead><tr><th>operation</th><th>queue</th><th>state</th><th>flags</th><th>why</th></tr></thead><tbody></tbody></table>
    <p class="note" id="opsnote"></p></section>
    <section id="side" aria-labelledby="h-sel"><h2 id="h-sel">Selected operation</h2>
    <div id="sel"></div>
    <div class="machine" id="machine" role="img" aria-label="State machine"></div>
    <ol id="path" aria-label="Transitions so far"></ol>
    <h2>Queues</h2><table id="queues"><thead><tr><th>queue</th><th>limit</th><th>suspended</th><th>executing</th></tr></thead><tbody></tbody></table>
    <h2>Warnings</h2><ul id="warnings"></ul>
    <h2>Log</h2><ol id="log" aria-label="Latest events"></ol></section>
        <section class="wide" id="timeline-section" aria-labelledby="h-tl"><h2 id="h-tl">Timeline and dependencies</h2><p class="note">Each row is an operation; arrows run from a dependency's finish to its dependent's start; the dashed line is the clock.</p><p id="pointed" class="pointed"></p><div id="timeline"></div></section>
    </main>
    <p class="note" style="padding:0 1rem">Keys: Space play/pause · . or → next event · , or ← previous · m next moment · M previous · Home/End. Made by <code>opsview export --format html</code>.</p>

    """#

  static let script = #"""
    "use strict";
    (function(){
    const D = JSON.parse(document.getElementById("run").textContent);
    const E = D.events, N = E.length;
    performance.mark("opsview-parsed");
    // The engine's words for event i: its cause, and its log line (HTMLHandout.data says how).
    function cause(i){ const c=D.causes[i]; return c?D.texts[c-1]:""; }
    function logLine(i){ const v=D.log[i], e=E[i]; if(typeof v==="string") return v;
      return v===0?e.operation+": "+e.from+" → "+e.to+": "+cause(i):e.operation+": "+D.texts[v-1]; }
    const STATES = ["initialized","pending","evaluatingConditions","ready","executing","finishing","finished"];
    const SI = {}; STATES.forEach((s,i)=>SI[s]=i);
    const GLYPH = ["·","…","?","◇","▶","◆","✓"];
    const PRI = {veryLow:0,low:1,normal:2,high:3,veryHigh:4}, PRN = ["veryLow","low","normal","high","veryHigh"];
    const $ = id => document.getElementById(id);
    function el(tag, text, cls){ const e=document.createElement(tag); if(text!=null) e.textContent=text; if(cls) e.className=cls; return e; }
    // Static facts from a first pass: operations in add order, queues, each op's state events.
    const ops = [], opIx = new Map(), queues = [], qIx = new Map(), stateEv = [];
    for (let i=0;i<N;i++){ const e=E[i];
      if (e.type==="queueAdded" && !qIx.has(e.queue)){ qIx.set(e.queue,queues.length); queues.push({name:e.queue}); }
      if (e.type==="operationAdded" && !opIx.has(e.operation)){ opIx.set(e.operation,ops.length);
        // Conditions as the projection lists them: the labels, then one lock per exclusivity category.
        const conds=e.conditions.map(c=>({name:c,lock:false})).concat((e.exclusivity||[]).map(c=>({name:c,lock:true})));
        ops.push({name:e.operation,queue:e.queue,q:qIx.has(e.queue)?qIx.get(e.queue):-1,kind:e.kind,pri:PRI[e.priority]??2,
          deps:e.dependencies.map(d=>[d,0]),conds,added:i}); stateEv.push([]); }
      if (e.type==="dependencyAdded" && opIx.has(e.operation)) ops[opIx.get(e.operation)].deps.push([e.dependency,i]);
      if (e.type==="state" && opIx.has(e.operation)) stateEv[opIx.get(e.operation)].push(i);
    }
    const M = ops.length, Q = queues.length;
    performance.mark("opsview-indexed");
    // The fold (docs/EVENTS.md) over typed arrays, with checkpoints so the slider can go back fast.
    // It keeps what Projection.whyWaiting reads: per operation its state, flags, lock wait, start
    // time and conditions; per queue its limit and suspension; lock holders and cycles.
    function fresh(){ return {k:0,st:new Int8Array(M).fill(-1),cx:new Int32Array(M).fill(-1),can:new Uint8Array(M),
      err:new Int32Array(M),since:new Float64Array(M),start:new Float64Array(M),rc:new Uint8Array(M),ql:new Float64Array(Q).fill(-1),qs:new Uint8Array(Q),
      lock:new Map(),holders:new Map(),cond:new Map(),cdep:new Map(),cycles:[],broken:new Set(),warn:[]}; }
    function clone(s){ return {k:s.k,st:s.st.slice(),cx:s.cx.slice(),can:s.can.slice(),err:s.err.slice(),since:s.since.slice(),start:s.start.slice(),rc:s.rc.slice(),
      ql:s.ql.slice(),qs:s.qs.slice(),lock:new Map(s.lock),holders:new Map(s.holders),cond:new Map(s.cond),cdep:new Map(s.cdep),
      cycles:s.cycles.slice(),broken:new Set(s.broken),warn:s.warn.slice()}; }
    // A condition's key: the operation, and the label or (for a lock) the category.
    function ck(o,lock,name){ return o+(lock?"\u0001":"\u0000")+name; }
    function apply(s,i){ const e=E[i], o=opIx.get(e.operation), q=qIx.get(e.queue);
      switch(e.type){
      case "queueAdded": if(s.ql[q]===-1){ s.ql[q]=e.maxConcurrent==null?-2:e.maxConcurrent; s.qs[q]=e.suspended?1:0; } break;
      case "queueSuspended": s.qs[q]=1; break;
      case "queueResumed": s.qs[q]=0; break;
      case "queueMaxConcurrent": s.ql[q]=e.value==null?-2:e.value; break;
      case "operationAdded": if(o!==undefined&&s.st[o]<0&&ops[o].added===i){ s.st[o]=0; s.since[o]=e.time; } break;
      case "state": if(o===undefined) break; s.st[o]=SI[e.to]; s.cx[o]=i; s.since[o]=e.time; s.rc[o]=0;
        if(e.to==="executing") s.start[o]=e.time;
        if(e.to==="finished") s.cycles.forEach((c,ci)=>{ if(c.includes(e.operation)) s.broken.add(ci); }); break;
      case "cancelled": if(o===undefined) break; s.can[o]=1; s.err[o]+=(e.errors||[]).length; if(!s.rc[o]) s.lock.delete(e.operation); break;
      case "didFinish": if(o!==undefined) s.err[o]=(e.errors||[]).length; break;
      // Ready and waiting for a lock: started by its queue, asking again for a lock given back while
      // the queue was suspended (X10); it holds a slot.
      case "exclusivityWaiting": s.lock.set(e.operation,[e.category,e.holder]); s.cond.set(ck(e.operation,true,e.category),"waitingForExclusivity");
        if(o!==undefined&&s.st[o]===3) s.rc[o]=1; break;
      case "exclusivityAcquired": s.lock.delete(e.operation); s.holders.set(e.category,e.operation); s.cond.set(ck(e.operation,true,e.category),"holdsLock"); break;
      case "exclusivityReleased": if(s.holders.get(e.category)===e.operation) s.holders.delete(e.category); s.cond.set(ck(e.operation,true,e.category),"released"); break;
      case "conditionWaiting": s.cdep.set(ck(e.operation,false,e.condition),e.dependency); break;
      case "conditionStarted": s.cond.set(ck(e.operation,false,e.condition),"evaluating"); break;
      case "conditionResult": s.cond.set(ck(e.operation,false,e.condition),e.result==="satisfied"?"satisfied":"failed"); break;
      case "cycleDetected": s.cycles.push(e.operations); break;
      case "warning": s.warn.push(i); break;
      }
      s.k=i+1; }
    const EVERY = Math.max(256, Math.ceil(N/100)), checkpoints=[fresh()];
    let cur = fresh();
    function seek(k){ k=Math.max(0,Math.min(N,k));
      if (k < cur.k || k - cur.k > EVERY){ const c=checkpoints[Math.min(checkpoints.length-1,Math.floor(k/EVERY))];
        if (c.k > cur.k || k < cur.k) cur = clone(c); }
      while (cur.k < k){ apply(cur,cur.k); if (cur.k % EVERY===0 && checkpoints.length===cur.k/EVERY) checkpoints.push(clone(cur)); }
      return cur; }
    // Why an operation is where it is: a port of Projection.whyWaiting and the board's wording for
    // what nothing holds (BoardRenderer.explanation), word for word. The page folds events rather
    // than embedding the engine's lines because those lines name what executes and what is ahead in
    // line, so they change for many operations at every start: embedded, they would be several
    // times the size of the events on a large run. Two tests hold it to the engine's words:
    // Tests/Browser/html_handout.py --why, for every operation at the end of every instant of every
    // built-in scenario, against `opsview trace --explain`; HTMLWhyLinesTests, after every event of
    // the smaller ones (between instants too), against Projection.whyWaiting.
    const NAMED_DEPS = 8, IN_LINE = 8;
    // What each queue executes (in the order they started) and its first ready operations in the
    // order Foundation starts them (highest priority first, FIFO within one), and the started ones
    // asking again for a lock (holding slots, in add order), once per position.
    let qCache=null, qAt=-1;
    function queueView(s){ if(qAt!==s.k || !qCache){ qAt=s.k; qCache=queues.map(()=>({run:[],ready:[],held:[]}));
        for(let j=0;j<M;j++){ const qi=ops[j].q; if(qi<0) continue;
          if(s.st[j]===4) qCache[qi].run.push(j); else if(s.st[j]===3) (s.rc[j]?qCache[qi].held:qCache[qi].ready).push(j); }
        for(const v of qCache){ v.run.sort((a,b)=>(s.start[a]-s.start[b])||(a-b)); v.ready.sort((a,b)=>(ops[b].pri-ops[a].pri)||(a-b)); } }
      return qCache; }
    function executingIn(s,qi){ return queueView(s)[qi].run.map(j=>ops[j].name); }
    function stateOf(s,name){ const x=opIx.get(name); return x===undefined||s.st[x]<0?null:STATES[s.st[x]]; }
    function limitText(s,qi){ return s.ql[qi]<0?"∞":String(s.ql[qi]); }
    function cycleText(c){ if(c.length<=8) return c.concat([c[0]]).join(" → ");
      return c.slice(0,4).join(" → ")+" → … ("+(c.length-5)+" more) → "+c[c.length-1]+" → "+c[0]; }
    function lockText(s,l){ const h=s.holders.get(l[0]); return h?"waiting for the "+l[0]+" exclusivity lock held by "+h:"waiting in line for the "+l[0]+" exclusivity lock behind "+l[1]; }
    function why(s,j){ const op=ops[j], st=s.st[j], qi=qIx.get(op.queue);
      const w = qi===undefined||s.ql[qi]===-1 ? null : whyWaiting(s,j,op,st,qi);
      if (w!==null) return w;
      switch(st){ case 4: return "executing: nothing holds it"; case 5: return "finishing: its observers are being told";
        case 6: return s.can[j]?"finished (cancelled)":s.err[j]?"finished with errors":"finished";
        default: return STATES[st]; } }
    function whyWaiting(s,j,op,st,qi){
      const qn=queues[qi].name;
      if (st>=4) return null;
      if (st===0) return s.can[j]?"cancelled outside any queue: it will never finish until a queue starts it":"just added to "+qn+": it becomes pending at once";
      if (st===1){
        const cyc = s.cycles.find((c,ci)=>!s.broken.has(ci)&&c.includes(op.name));
        if (cyc) return "part of a dependency cycle "+cycleText(cyc)+": none of them can ever start";
        const deps=op.deps.filter(d=>d[1]<s.k).map(d=>d[0]);
        if (deps.length>NAMED_DEPS){ const left=deps.filter(d=>stateOf(s,d)!=="finished").length;
          if (left>0) return "waiting for "+left+" of its "+deps.length+" dependencies"; }
        const w = deps.map(d=>{ const x=stateOf(s,d); return x===null?d+" (not added to a queue yet)":x==="finished"?null:d+" ("+x+")"; }).filter(x=>x!==null);
        if (w.length) return "waiting for "+(w.length===1?"its dependency ":"dependencies ")+w.join(", ");
        const l=s.lock.get(op.name); if(l) return lockText(s,l);
        if (s.qs[qi] && op.conds.length) return "its queue "+qn+" is suspended: condition evaluation waits until it resumes";
        return "its dependencies have finished; it moves on at once"; }
      if (st===2){ const l=s.lock.get(op.name);
        if(l) return op.conds.some(c=>!c.lock)?"its conditions passed; "+lockText(s,l):"evaluating its conditions: "+lockText(s,l);
        const status=c=>s.cond.get(ck(op.name,c.lock,c.name))||"waiting";
        const waiting=op.conds.filter(c=>!c.lock&&status(c)==="waiting"&&s.cdep.has(ck(op.name,false,c.name))).map(c=>{ const d=s.cdep.get(ck(op.name,false,c.name)); return c.name+" waits for "+d+" ("+(stateOf(s,d)??"not added")+")"; });
        const evaluating=op.conds.filter(c=>!c.lock&&status(c)==="evaluating").map(c=>c.name);
        const parts=[]; if(evaluating.length) parts.push("evaluating condition"+(evaluating.length===1?"":"s")+" "+evaluating.join(", "));
        parts.push(...waiting);
        const lock=op.conds.find(c=>c.lock);
        if(!parts.length && lock && op.conds.every(c=>c.lock||status(c)==="satisfied")){
          if(status(lock)==="holdsLock"){ const barrier=op.deps.filter(d=>d[1]<s.k).map(d=>d[0]).find(d=>{ const x=opIx.get(d); return x!==undefined&&s.st[x]>=0&&ops[x].kind==="barrier"&&s.st[x]!==6; });
            if(barrier!==undefined) return "its conditions passed and it holds the "+lock.name+" exclusivity lock; it becomes ready once the barrier "+barrier+" has finished";
            return "evaluating its conditions: it got the "+lock.name+" exclusivity lock, so it becomes ready"; }
          return "evaluating its conditions: asking for the "+lock.name+" exclusivity lock"; }
        return parts.length?parts.join("; "):"its conditions are being evaluated"; }
      const l=s.lock.get(op.name);
      if (l) return "started by its queue, it holds a slot and asks again for the lock given back while its queue was suspended: "+lockText(s,l);
      if (s.rc[j]) return "started by its queue, it holds its lock again: it executes now";
      const pre = s.can[j]?"cancelled, waiting for its queue to start it so it can finish: ":"";
      return pre+readyReason(s,j,qi,qn); }
    function readyReason(s,j,qi,qn){
      if (s.qs[qi]) return "its queue "+qn+" is suspended";
      const lim=s.ql[qi]; if (lim===0) return qn+" allows 0 at a time (maxConcurrent 0): nothing starts there";
      const v=queueView(s)[qi], atLimit=lim>=0&&v.run.length+v.held.length>=lim, pos=v.ready.indexOf(j);
      if (pos<0 || pos>=IN_LINE) return atLimit?qn+" is at its limit ("+limitText(s,qi)+" at a time) and more than "+IN_LINE+" ready operations are ahead of it: it waits its turn"
        :"more than "+IN_LINE+" ready operations are ahead of it in "+qn;
      const ahead=v.ready.slice(0,pos).map(x=>ops[x].name+" ("+PRN[ops[x].pri]+")");
      const aheadText=ahead.slice(0,4).join(", ")+(ahead.length>4?" and "+(ahead.length-4)+" more":"");
      if (atLimit){ const run=v.run.map(x=>ops[x].name), held=v.held.map(x=>ops[x].name);
        let t=qn+" is at its limit: "+run.length+"/"+limitText(s,qi)+" executing";
        if (run.length) t+=": "+run.slice(0,6).join(", ")+(run.length>6?", …":"");
        if (held.length) t+="; "+held.length+" slot"+(held.length===1?"":"s")+" held by "+held.slice(0,6).join(", ")+(held.length>6?", …":"")+", waiting for a lock given back while it was suspended";
        return t+(ahead.length?"; next in line before it: "+aheadText:""); }
      if (ahead.length) return "ahead of it in "+qn+": "+aheadText;
      return "ready: its queue starts it now"; }
    // A caption's `code` spans, as the board draws them (bold), without their backticks.
    function rich(tag, text){ const e=el(tag); String(text).split("`").forEach((part,i)=>{ if(!part) return; e.appendChild(i%2?el("code",part):document.createTextNode(part)); }); return e; }
    function fmt(t){ return (Math.round(t*1000)/1000).toString(); }
    // The page.
    $("title").textContent = D.title || D.id;
    // The lesson's `code` spans, as in the captions.
    $("lesson").replaceChildren(...rich("span",D.lesson).childNodes);
    const slider=$("slider"); slider.max=N;
    let k=0, selected = M?0:-1, playing=false, quizState=null;
    const LIMIT = 300;
    const tbody = $("ops").tBodies[0];
    function visibleOps(s){ if (M<=LIMIT){ const r=[]; for(let j=0;j<M;j++) if(s.st[j]>=0) r.push(j); return r; }
      const r=[]; for(let j=0;j<M&&r.length<LIMIT;j++) if(s.st[j]>=0 && s.st[j]<6) r.push(j); return r; }
    function renderTable(s){
      const rows=visibleOps(s), frag=document.createDocumentFragment();
      for (const j of rows){ const op=ops[j], st=s.st[j], tr=el("tr");
        tr.dataset.op=op.name; tr.tabIndex=0; tr.setAttribute("aria-selected", j===selected?"true":"false");
        tr.appendChild(el("td",op.name)); tr.appendChild(el("td",op.queue));
        const td=el("td"); const name=st<0?"not added":STATES[st]; const sp=el("span",(st<0?"":GLYPH[st]+" ")+name,"st"+(st<0?"":" s-"+name)); sp.dataset.state=st<0?"":name; td.appendChild(sp); tr.appendChild(td);
        const flags=st<0?"":[st===3?"isReady":"",st===4||st===5?"isExecuting":"",st===6?"isFinished":"",s.can[j]?"isCancelled":"",s.err[j]?"errors":""].filter(Boolean).join(" ");
        tr.appendChild(el("td",flags,"flags")); tr.appendChild(el("td",st<0?"":why(s,j),"why"));
        frag.appendChild(tr); }
      tbody.replaceChildren(frag);
      let finished=0; for(let j=0;j<M;j++) if(s.st[j]===6) finished++;
      $("opsnote").textContent = M>LIMIT ? "Showing "+rows.length+" unfinished of "+M+" operations ("+finished+" finished)." : ""; }
    function renderQueues(s){ const frag=document.createDocumentFragment();
      queues.forEach((q,i)=>{ if(s.ql[i]===-1) return; const tr=el("tr"); const run=executingIn(s,i), held=queueView(s)[i].held.map(x=>ops[x].name);
        tr.appendChild(el("td",q.name)); tr.appendChild(el("td",s.ql[i]===-2?"no limit":String(s.ql[i])));
        tr.appendChild(el("td",s.qs[i]?"yes, suspended":"no")); tr.appendChild(el("td",(run.length?run.length+": "+run.slice(0,8).join(", ")+(run.length>8?", …":""):"nothing")
          +(held.length?"; "+held.length+" slot"+(held.length===1?"":"s")+" held by "+held.slice(0,8).join(", ")+" (asking again for a lock)":"")));
        frag.appendChild(tr); });
      $("queues").tBodies[0].replaceChildren(frag); }
    function renderWarnings(s){ const ul=$("warnings"); ul.replaceChildren();
      if(!s.warn.length){ ul.appendChild(el("li","none yet","note")); return; }
      for (const i of s.warn.slice(-12)) ul.appendChild(el("li","⚠ "+fmt(E[i].time)+"s "+E[i].subject+": "+E[i].message,"warn")); }
    function renderLog(s){ const ol=$("log"); ol.replaceChildren(); const from=Math.max(0,s.k-8);
      ol.start=from+1; for(let i=from;i<s.k;i++){ const li=el("li",fmt(E[i].time)+"s "+logLine(i)); if(i===s.k-1) li.className="now"; ol.appendChild(li); } }
    function renderSelected(s){ const box=$("sel"), m=$("machine"), p=$("path"); box.replaceChildren(); m.replaceChildren(); p.replaceChildren();
      const shown=selected;
      if (shown<0){ box.textContent="Click an operation."; return; }
      const op=ops[shown], st=s.st[shown];
      box.appendChild(el("strong",op.name)); box.appendChild(document.createTextNode(" on "+op.queue+" ("+op.kind+")"+(op.deps.length?", depends on "+op.deps.map(d=>d[0]).join(", "):"")+(s.can[shown]?", cancelled":"")));
      if (st>=0){ const w=el("p",null,"why"); w.appendChild(el("strong","why ")); w.appendChild(document.createTextNode(why(s,shown))); box.appendChild(w); }
      const visited=new Set([0]); const trans=stateEv[shown].filter(i=>i<s.k);
      for(const i of trans) visited.add(SI[E[i].to]);
      STATES.forEach((name,i)=>{ if(i) m.appendChild(el("span","→","arrow")); const b=el("span",(i===st?"● ":visited.has(i)&&st>=0?"✓ ":"")+name,"box"+(visited.has(i)&&st>=0?" visited":"")+(i===st?" current":"")); if(i===st) b.setAttribute("aria-current","step"); m.appendChild(b); });
      m.setAttribute("aria-label","State machine: "+(st<0?"not added yet":"now "+STATES[st]));
      if (st<0) p.appendChild(el("li","not added yet"));
      for(const i of trans) p.appendChild(el("li",fmt(E[i].time)+"s "+E[i].from+" → "+E[i].to+": "+cause(i))); }
    function momentAt(k){ for(let i=D.moments.length-1;i>=0;i--) if(D.moments[i].seq===k) return i; return -1; }
    function renderMoments(){ const ol=$("chapters"), mi=momentAt(k);
      [...ol.children].forEach((li,i)=>{ li.className=i===mi?"current":""; if(i===mi) li.setAttribute("aria-current","step"); else li.removeAttribute("aria-current"); });
      const c=$("caption"); c.replaceChildren();
      if (mi<0){ c.hidden=true; return; }
      const m=D.moments[mi]; c.hidden=false; c.appendChild(rich("p",m.caption)); c.dataset.moment=String(mi);
      if(m.claims.length){ const ul=el("ul",null,"claims"); m.claims.forEach(t=>ul.appendChild(el("li","✓ "+t))); c.appendChild(ul); } }
    function renderQuiz(){ const b=$("quizbody"); b.replaceChildren();
      if(!D.quiz.length){ b.appendChild(el("p","No questions: the quiz asks at a scenario's moments.","note")); return; }
      const mi=momentAt(k); const q=D.quiz.find(q=>q.stop===mi);
      if(quizState && quizState.q){ const qs=quizState; const right=qs.q.accepted.includes(qs.picked);
        b.appendChild(el("p",qs.q.prompt)); b.appendChild(el("p",(right?"✓ right: ":"✗ not this time: ")+"you said "+qs.q.choices[qs.picked]+"; the engine: "+qs.q.accepted.map(a=>qs.q.choices[a]).join(" or "),right?"right":"wrong"));
        b.appendChild(el("p",qs.q.explanation)); const close=el("button","Continue"); close.onclick=()=>{quizState=null;render();}; b.appendChild(close); return; }
      if(!q){ b.appendChild(el("p","Go to a moment (m) to be asked what happens next.","note")); return; }
      const fs=el("fieldset"); fs.appendChild(el("legend",q.prompt));
      q.choices.forEach((c,i)=>{ const l=el("label"); const r=el("input"); r.type="radio"; r.name="choice"; r.value=String(i); l.appendChild(r); l.appendChild(document.createTextNode(" "+c)); fs.appendChild(l); fs.appendChild(el("br")); });
      b.appendChild(fs); const go=el("button","Reveal"); go.id="reveal";
      // Nothing is chosen for the learner: Reveal asks for a prediction first.
      const ask=el("span","","note"); ask.setAttribute("role","status");
      go.onclick=()=>{ const chosen=fs.querySelector("input:checked"); if(!chosen){ ask.textContent=" Choose an answer first: predict, then reveal."; return; } const picked=+chosen.value; quizState={q,picked}; setK(q.revealAt); const i=opIx.get(q.focus); if(i!==undefined) selected=i; render(); };
      b.appendChild(go); b.appendChild(ask); }
    // Timeline: the SVG export's picture (from the <template>), its rows selecting operations, with
    // a line at the clock.
    function buildTimeline(){ const box=$("timeline"), tpl=$("picture"), svg=tpl.content.querySelector("svg");
      if(!svg){ box.appendChild(el("p",M?"The timeline is drawn for runs of up to 400 operations.":"No operations.","note")); return null; }
      box.appendChild(document.importNode(svg,true)); const pic=box.querySelector("svg");
      const x0=+pic.dataset.x0, x1=+pic.dataset.x1, end=Math.max(D.end,0.001);
      // A band behind the selected row and one behind the row pointed at.
      const band=(fill)=>{ const r=document.createElementNS(pic.namespaceURI,"rect"); r.setAttribute("x","0"); r.setAttribute("width",pic.getAttribute("width")||"100%");
        r.setAttribute("fill",fill); r.setAttribute("visibility","hidden"); pic.insertBefore(r,pic.firstChild); return r; };
      const hoverBand=band("#e3f2fd"), selBand=band("#bbdefb");
      const rows=[...pic.querySelectorAll("g[data-row]")];
      // The picture is one stop for Tab, a list of its operations: ↑/↓ select, as the pointer does.
      // Its rows are the options: the picture itself is not one image to a screen reader here.
      pic.setAttribute("role","none"); pic.removeAttribute("aria-labelledby");
      box.tabIndex=0; box.setAttribute("role","listbox"); box.setAttribute("aria-label","Timeline of the operations: ↑ and ↓ select one");
      for(const g of rows){ const j=+g.dataset.row; g.style.cursor="pointer"; g.id="tl-row-"+j; g.setAttribute("role","option");
        g.setAttribute("aria-label",ops[j]?ops[j].name:"operation "+j); g.setAttribute("aria-selected","false");
        g.addEventListener("click",()=>{ hover=-1; selected=j; render(); });
        g.addEventListener("mouseenter",()=>{ hover=j; place(hoverBand,j); renderPointed(); });
        g.addEventListener("mouseleave",()=>{ if(hover===j){ hover=-1; hoverBand.setAttribute("visibility","hidden"); renderPointed(); } }); }
      // Each row's box, read once: getBBox after a change lays the whole page out again.
      const boxes=new Map(rows.map(g=>{ const b=g.getBBox(); return [+g.dataset.row,[b.y,b.height]]; }));
      function place(r,j){ const b=boxes.get(j); if(!b){ r.setAttribute("visibility","hidden"); return; }
        r.setAttribute("y",b[0]); r.setAttribute("height",b[1]); r.setAttribute("visibility","visible"); }
      box.addEventListener("keydown",e=>{ if(e.key!=="ArrowDown"&&e.key!=="ArrowUp") return;
        const at=rows.findIndex(g=>+g.dataset.row===selected), next=Math.max(0,Math.min(rows.length-1,at<0?0:at+(e.key==="ArrowDown"?1:-1)));
        selected=+rows[next].dataset.row; render(); rows[next].scrollIntoView({block:"nearest"}); e.preventDefault(); });
      const now=document.createElementNS(pic.namespaceURI,"line"); now.setAttribute("y1",pic.dataset.top); now.setAttribute("y2",pic.dataset.bottom);
      now.setAttribute("stroke","#d81b60"); now.setAttribute("stroke-width","2"); now.setAttribute("stroke-dasharray","4 3"); pic.appendChild(now);
      return {now,x:t=>x0+(x1-x0)*t/end,pic,box,place,selBand,shown:-2}; }
    // The operation the pointer is over in the picture: its table row marked, and a line of one
    // height above the picture with its state and why (nothing moves under the pointer).
    function renderPointed(){ for(const tr of tbody.rows) tr.classList.toggle("hover",hover>=0&&tr.dataset.op===ops[hover].name);
      const p=$("pointed"); if(hover<0){ p.textContent=tl?POINT_HINT:""; return; } const s=seek(k), st=s.st[hover];
      p.replaceChildren(el("strong",ops[hover].name), document.createTextNode(st<0?": not added yet":": "+STATES[st]+" · "+why(s,hover))); }
    const POINT_HINT="Point at a row to see what it is doing now; click it (or use ↑/↓ here) to select it.";
    let tl=null, hover=-1;
    function time(){ return k?E[k-1].time:0; }
    function render(){ const s=seek(k); slider.value=k;
      $("clock").textContent=fmt(time())+"s · event "+k+"/"+N; slider.setAttribute("aria-valuetext","event "+k+" of "+N+", at "+fmt(time())+" seconds");
      renderTable(s); renderPointed(); renderQueues(s); renderWarnings(s); renderLog(s); renderSelected(s); renderMoments(); renderQuiz();
      if(tl){ const X=tl.x(time()); tl.now.setAttribute("x1",X); tl.now.setAttribute("x2",X);
        if(tl.shown!==selected){ tl.shown=selected;
          for(const g of tl.pic.querySelectorAll("g.sel")){ g.classList.remove("sel"); g.setAttribute("aria-selected","false"); }
          if(selected>=0) for(const g of tl.pic.querySelectorAll('g[data-row="'+selected+'"]')){ g.classList.add("sel"); g.setAttribute("aria-selected","true"); tl.box.setAttribute("aria-activedescendant",g.id); }
          tl.place(tl.selBand,selected); } } }
    function setK(n){ k=Math.max(0,Math.min(N,n)); }
    function go(n){ quizState=null; setK(n); render(); }
    function nextMoment(){ const m=D.moments.find(m=>m.seq>k); go(m?m.seq:N); }
    function prevMoment(){ const ms=D.moments.filter(m=>m.seq<k); go(ms.length?ms[ms.length-1].seq:0); }
    D.moments.forEach((m,i)=>{ const li=rich("li","at "+fmt(m.time)+"s: "+m.caption); li.tabIndex=0; li.setAttribute("role","button"); li.onclick=()=>go(m.seq); li.onkeydown=e=>{ if(e.key==="Enter"){ go(m.seq); e.preventDefault(); } }; $("chapters").appendChild(li); });
    $("nomoments").hidden = D.moments.length>0;
    let timer=null, last=0, playClock=0;
    function tick(ts){ if(!playing) return; const dt=last?(ts-last)/1000:0; last=ts;
      playClock=Math.max(playClock,time())+dt*+$("speed").value; let n=k;
      while(n<N && E[n].time<=playClock+1e-9) n++;
      const stop=D.moments.find(m=>m.seq>k && m.seq<=n);
      if (stop){ n=stop.seq; setPlaying(false); }
      if (n>=N) setPlaying(false);
      if (n!==k){ setK(n); quizState=null; render(); }
      if (playing) timer=requestAnimationFrame(tick); }
    function setPlaying(p){ playing=p; $("play").textContent=p?"⏸ Pause":"▶ Play"; $("play").setAttribute("aria-pressed",p?"true":"false"); last=0;
      if(p){ if(k>=N) setK(0); playClock=time(); timer=requestAnimationFrame(tick);} }
    $("play").onclick=()=>setPlaying(!playing);
    $("step").onclick=()=>go(k+1); $("back").onclick=()=>go(k-1);
    $("first").onclick=()=>go(0); $("last").onclick=()=>go(N);
    $("nextMoment").onclick=nextMoment; $("prevMoment").onclick=prevMoment;
    slider.addEventListener("input",()=>go(+slider.value));
    tbody.addEventListener("click",e=>{ const tr=e.target.closest("tr"); if(tr){ selected=opIx.get(tr.dataset.op); render(); } });
    tbody.addEventListener("keydown",e=>{ if(e.key==="Enter"||e.key===" "){ const tr=e.target.closest("tr"); if(tr){ selected=opIx.get(tr.dataset.op); render(); [...tbody.rows].find(r=>r.dataset.op===tr.dataset.op)?.focus(); e.preventDefault(); e.stopPropagation(); } } });
    document.addEventListener("keydown",e=>{ if(e.ctrlKey||e.metaKey||e.altKey) return; const t=e.target, inForm=t&&(t.tagName==="INPUT"||t.tagName==="SELECT"||t.tagName==="BUTTON");
      switch(e.key){
      case " ": if(t&&(t.tagName==="BUTTON"||t.tagName==="SELECT"||(t.tagName==="INPUT"&&t.type!=="range"))) return; setPlaying(!playing); break;
      case ".": go(k+1); break; case ",": go(k-1); break;
      case "ArrowRight": if(t===slider) return; go(k+1); break; case "ArrowLeft": if(t===slider) return; go(k-1); break;
      case "m": nextMoment(); break; case "M": prevMoment(); break;
      case "Home": if(t===slider) return; go(0); break; case "End": if(t===slider) return; go(N); break;
      default: return; }
      e.preventDefault(); });
    // For tests and the curious: the states the table shows, by operation.
    window.opsview = { events:N, seek:n=>go(n), indexAt:t=>{ let n=0; while(n<N&&E[n].time<=t+1e-9) n++; return n; },
      folded:()=>checkpoints.length>=Math.floor(N/EVERY)+1,
      whysAt:n=>{ const s=seek(n), r={}; ops.forEach((o,j)=>{ if(s.st[j]>=0) r[o.name]=[STATES[s.st[j]],why(s,j)]; }); return r; }, states:()=>{ const s=seek(k), r={}; ops.forEach((o,j)=>{ if(s.st[j]>=0) r[o.name]=STATES[s.st[j]]; }); return r; } };
    tl=buildTimeline();
    render();
    performance.mark("opsview-ready");
    // After the first paint, the checkpoints are folded ahead in slices of a few milliseconds, so
    // that scrubbing anywhere later folds at most EVERY events.
    let ahead=null;
    function foldAhead(){
      if(!ahead){ const last=checkpoints[checkpoints.length-1]; if(last.k+EVERY>N) return; ahead=clone(last); }
      const t0=performance.now();
      while(performance.now()-t0<8){ apply(ahead,ahead.k);
        if(ahead.k%EVERY===0){ if(checkpoints.length===ahead.k/EVERY) checkpoints.push(clone(ahead)); ahead=null; break; }
        if(ahead.k>=N){ ahead=null; return; } }
      setTimeout(foldAhead,0); }
    setTimeout(foldAhead,0);
    })();

    """#
}
