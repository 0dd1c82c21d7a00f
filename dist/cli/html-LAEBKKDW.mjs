import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as J}from"./chunk-33OTZADU.mjs";import{b as rt,h as ot,i as it,j as at,k as K,l as lt,m as dt,o as pt,p as ct}from"./chunk-M5WNKKJ4.mjs";import{f as x,g as Z,i as tt,k as L,n as et,p as F,r as nt,s as st,u as G}from"./chunk-PAUM5UU5.mjs";import"./chunk-HTCSK6XY.mjs";import"./chunk-4HTAQX72.mjs";import"./chunk-HXLWJUD2.mjs";import"./chunk-AN3FC4KG.mjs";import"./chunk-7G6XRFGQ.mjs";import{a as X,c as n}from"./chunk-GUH6SEHT.mjs";import"./chunk-DOOG3CUU.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-Q552WKUS.mjs";import{o as M}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var P={success:"s",failure:"f",skipped:"k",cancelled:"c","in doubt":"d","under way":"u"},ut=t=>`i${t}`,St=t=>t.outcome==="failure"||t.inDoubt!==null;function mt(t){return`
.grid { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0 16px; }
.grid .t { display: inline-flex; gap: 1px; align-items: center; }
.grid .t b { font-weight: 600; font-size: 12px; margin: 0 4px 0 2px; }
.grid a, .grid i { display: inline-block; width: 7px; height: 14px; border-radius: 1px; }
.grid .n { background: #eaeef2; }
.x { background: #82071e; }
.grid a:hover, .grid a:focus { outline: 2px solid #0969da; }
h3 { font-size: 14px; margin: 14px 0 4px; }
.rows .r { padding: 3px 0; border-bottom: 1px solid #d8dee4; }
.rows .r:target { outline: 3px solid #0969da; }
.rows .badge { margin-right: 6px; }
${Object.entries(P).map(([o,p])=>`.${p} { background: ${t[o]}; }`).join(`
`)}
`}function ft(t,r,o){let p=e=>e.round===null&&!!e.matrix&&r.key in e.matrix,u=new Map,h=[];for(let e of t.steps)p(e)&&!u.has(e.step)&&(u.set(e.step,h.length),h.push(`${e.step+1}${e.id?` (${e.id})`:""} ${e.uses}`));let i=new Map;r.sites.forEach((e,a)=>i.set(e,a));let l=h.length,m=new Int32Array(r.sites.length*l).fill(-1),O=new Int32Array(m.length),k=new Int32Array(t.steps.length).fill(-1),y=new Uint8Array(r.sites.length),$=new Uint8Array(r.sites.length);t.steps.forEach((e,a)=>{let d=p(e)?i.get(String(e.matrix[r.key])):void 0;if(d===void 0)return;let f=d*l+u.get(e.step);m[f]<0?m[f]=a:k[O[f]]=a,O[f]=a,y[d]=1,St(e)&&($[d]=1)});let b=new Uint8Array(r.sites.length),A=`${r.key}=`;for(let e of t.merged?.noReport??[]){let a=e.startsWith(A)?i.get(e.slice(A.length)):void 0;a!==void 0&&!y[a]&&(b[a]=1)}let s=h.map(n),c=new Map,H=0,R=new Float64Array(r.sites.length).fill(1/0),B=e=>e.flatMap(a=>{let d=i.get(a);return d!==void 0&&(y[d]||b[d])?[d]:[]}),U=(t.rollout?.waves??[]).map(e=>({w:e,own:B(e.values)}));for(let{w:e,own:a}of U)for(let d of a)R[d]=e.wave;let yt=(e,a)=>{let d=n(r.sites[e]),f=`<span class="t">${a?`<b>${d}</b>`:""}`;if(b[e])return`${f}<i class="x" title="${d} \xB7 no report: its job died or never ran"></i></span>`;for(let v=0;v<l;v++){if(m[e*l+v]<0){f+=`<i class="n" title="${d} \xB7 ${s[v]} \xB7 not run"></i>`;continue}for(let S=m[e*l+v];S>=0;S=k[S]){let g=t.steps[S],D=x(g);c.set(D,(c.get(D)??0)+1);let V=g.inDoubt&&D!=="in doubt"?", in doubt":"";V&&H++,f+=`<a href="#${ut(S)}" class="${P[D]}" title="${d} \xB7 ${s[v]} \xB7 ${D}${V}"></a>`}}return`${f}</span>`},N=(e,a,d=!1)=>`<h3>${n(e)}</h3>
<div class="grid" role="group" aria-label="${n(e)}">${J(a,f=>yt(f,d))}</div>
`,W=r.sites.flatMap((e,a)=>y[a]||b[a]?[a]:[]),j=[],E=W.filter(e=>$[e]);E.length>0&&(E.sort((e,a)=>R[e]-R[a]),j.push(N(`Failed or in doubt: ${w(E.length)} ${r.key}(s)`,E,!0)));let I=W.filter(e=>b[e]);I.length>0&&j.push(N(`No report: ${w(I.length)} ${r.key}(s)`,I,!0));let C=new Uint8Array(r.sites.length);for(let{w:e,own:a}of U){let d=a.filter(g=>!C[g]);for(let g of d)C[g]=1;let f=d.filter(g=>!$[g]&&!b[g]),v=d.length-f.length,S=d.some(g=>b[g])?"failed, in doubt or with no report":"failed or in doubt";j.push(N(`Wave ${e.wave}: ${e.outcome.replace(/-/g," ")} \xB7 ${w(d.length)} ${r.key}(s)${v?`, ${w(v)} ${S} (above)`:""}`,f))}let _=W.filter(e=>!C[e]&&!$[e]&&!b[e]);_.length>0&&j.push(N(`${t.rollout?"Outside the waves":"The rest"}: ${w(_.length)} ${r.key}(s)`,_));let vt=["failure","in doubt","cancelled",...t.merged?.underWay?["under way"]:[],"skipped","success"],kt=e=>e==="failure"&&H?` (${w(H)} in doubt)`:"",Mt=vt.map(e=>`<span><i style="background:${o[e]}"></i>${e} ${w(c.get(e)??0)}${kt(e)}</span>`).join("")+(I.length?`<span><i class="x"></i>no report ${w(I.length)}</span>`:"");return`<h2>${n(r.key)}: ${w(W.length)} at a glance</h2>
<p class="hint">A tile per ${n(r.key)}, a cell per step, left to right: ${s.join(" \xB7 ")}. Each cell links to its row in the table of steps; hover for what it is.</p>
<div class="legend">${Mt}</div>
${j.join("")}`}function ht(t,r){let o=Date.parse(t.startedAt),p=Math.max(1,t.durationMs),u=["failure","in doubt","cancelled","under way","skipped","success"],h=new Map;for(let i of t.steps){let l=h.get(i.step);if(l||h.set(i.step,l={label:`${i.step+1} ${i.uses}`,runs:0,from:1/0,to:-1/0,worst:u.length-1,earlier:0}),l.runs++,l.worst=Math.min(l.worst,u.indexOf(x(i))),i.resume==="earlier-run"&&l.earlier++,!i.startedAt||i.resume==="earlier-run")continue;let m=Date.parse(i.startedAt)-o;l.from=Math.min(l.from,m),l.to=Math.max(l.to,m+(i.durationMs??0))}return[...h.values()].map(i=>{let l=i.from!==1/0,m=l?Math.min(100,Math.max(0,i.from)/p*100):0,O=l?Math.max(.4,Math.min(100-m,(i.to-i.from)/p*100)):0,k=u[i.worst],y=l?`<div class="bar" style="left:${m.toFixed(2)}%;width:${O.toFixed(2)}%;background:${r[k]}" title="${n(k)}"></div>`:"",$=`${i.label} (${w(i.runs)} runs)`;return`<div class="row"><div class="label" title="${n($)}">${n($)}</div><div class="track">${y}</div><div class="time">${l?n(M(i.to-i.from)):i.earlier>0?"(earlier run)":""}</div></div>`}).join(`
`)}function Y(t,r){return`${n(t.name)}${t.continuedOnError?" <em>(continue-on-error)</em>":""}${t.resume==="earlier-run"?" <em>(earlier run)</em>":""}${t.inDoubt&&(t.outcome!=="cancelled"||t.decision)||t.decision?` <em>(${n(Z(t,r))})</em>`:""}`}function q(t){let r=rt(t);return`${r?`<div class="error">${n(r.message)}</div>`:""}${r?.hint?`<div class="hint">what to do: ${n(r.hint)}</div>`:""}`}function gt(t,r){return J(t.steps,(o,p)=>{let u=x(o),h=o.startedAt?` \xB7 ${n(L(o.durationMs,M))}`:"";return`<div id="${ut(p)}" class="r"><span class="badge ${P[u]}">${n(u)}</span>${Y(o,r)}${h}${o.figures?` \xB7 ${n(o.figures)}`:""}${q(o)}</div>`},`
`)}var w=t=>t.toLocaleString("en");var Tt=/^(https?:|mailto:|#)/i,Ot=new dt({gfm:!0,async:!1,renderer:{html({text:t}){return n(t)},link({href:t,text:r,tokens:o}){let p=o?this.parser.parseInline(o):n(r);return Tt.test(t.trim())?`<a href="${n(t)}" rel="noopener noreferrer">${p}</a>`:p},image({text:t}){return`<span class="image">[image: ${n(t)}]</span>`}}});var $t=(16*1024)**2;function bt(){return{left:$t}}function Rt(t){let r=new lt({gfm:!0});r.blockTokens(t,r.tokens);let o=0;for(let{src:p}of r.inlineQueue)o+=p.length**2;return o}var z=(t,r)=>`<p class="note">${t}</p><pre class="plain">${n(r)}</pre>`;function xt(t,r){if(t.length>1048576){let p=u=>`${Math.round(u/1024)} KiB`;return z(`This report is ${p(t.length)}: its first ${p(1048576)} are shown as plain text; the JSON report holds it whole (the step's <code>result.report</code>).`,t.slice(0,1048576))}let o=X(t.replace(/\r\n/g,`
`));try{let p=Rt(o);return p>$t?z("This report is shown as plain text: its paragraphs are too long to render as Markdown in a bounded time.",t):p>r.left?z("This report is shown as plain text: the reports above it used what this page renders as Markdown.",t):(r.left-=p,Ot.parse(o))}catch{return z("This report is nested too deep to be shown as Markdown: it is shown as plain text.",t)}}var T={success:"#1a7f37",failure:"#cf222e",skipped:"#8c959f",cancelled:"#bf8700","in doubt":"#bc4c00","under way":"#0969da"},wt={...T,parked:"#8250df"},At={...wt,"no report":"#82071e"},Ht=`
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #fff; }
header { padding: 20px 28px; color: #fff; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 0; opacity: .9; }
main { padding: 8px 28px 40px; max-width: 1200px; }
h2 { font-size: 17px; margin: 28px 0 10px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #d8dee4; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
.badge { display: inline-block; min-width: 72px; text-align: center; padding: 1px 8px; border-radius: 10px; color: #fff; font-size: 12px; }
.timeline .row { display: grid; grid-template-columns: 300px 1fr 80px; align-items: center; gap: 10px; margin: 3px 0; }
.timeline .label { overflow-wrap: anywhere; }
.timeline .track { position: relative; height: 16px; background: #f6f8fa; border-radius: 3px; }
.timeline .bar { position: absolute; top: 0; height: 16px; border-radius: 3px; min-width: 3px; }
.timeline .time { color: #59636e; font-variant-numeric: tabular-nums; }
.legend span { margin-right: 14px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }
.error { color: #cf222e; }
.hint { color: #59636e; }
details { border: 1px solid #d0d7de; border-radius: 6px; margin: 10px 0; padding: 6px 12px; }
summary { cursor: pointer; font-weight: 600; }
.report table { width: auto; }
.report h1 { font-size: 19px; }
.report h2 { font-size: 15px; border: none; }
.report code, pre { background: #f6f8fa; }
footer { color: #59636e; font-size: 12px; margin-top: 30px; }
`;function qt(t,r){let o=at(t),p=Date.parse(t.startedAt),u=Math.max(1,t.durationMs),h=o?ht(t,T):t.steps.map(s=>{let c=s.resume==="earlier-run",H=s.startedAt?Math.max(0,Date.parse(s.startedAt)-p):0,R=Math.min(100,H/u*100),B=s.startedAt?Math.max(.4,Math.min(100-R,(s.durationMs??0)/u*100)):0,U=s.startedAt&&!c?`<div class="bar" style="left:${R.toFixed(2)}%;width:${B.toFixed(2)}%;background:${T[x(s)]}" title="${n(x(s))}"></div>`:"";return`<div class="row"><div class="label" title="${n(s.name)}">${n(s.name)}</div><div class="track">${U}</div><div class="time">${s.startedAt?n(L(s.durationMs,M)):n(x(s))}${c?" (earlier run)":""}</div></div>`}).join(`
`),i=o?gt(t,r):t.steps.map(s=>`<tr><td><span class="badge" style="background:${T[x(s)]}">${n(x(s))}</span></td><td>${Y(s,r)}<br><code>${n(s.uses)}</code>${K(s)?`<br><small>${n(K(s))}</small>`:""}</td><td>${n(st(s))}</td><td>${s.startedAt?n(L(s.durationMs,M)):""}</td><td>${n(s.figures??"")}${q(s)}</td></tr>`).join(`
`),l=[],m=0;for(let s of t.steps){let c=nt(s);c&&o&&c.success?m++:c&&l.push({s,u:c})}let O=bt(),k=l.map(({s,u:c})=>`<details open><summary>${n(s.name)}: ${c.success?"succeeded":"failed"}</summary><div class="report">${xt(c.report,O)}</div></details>`).join(`
`),y=m?`<p class="hint">The reports of the ${m.toLocaleString("en")} update(s) that succeeded are in the JSON report.</p>
`:"",$=ot(t).map(s=>`<tr><td><span class="badge" style="background:${At[s.status]}">${n(s.status)}</span></td><td>${n(s.label)}</td><td>${n(s.detail)}</td><td>${s.durationMs===null?"":n(M(s.durationMs))}</td></tr>`).join(`
`),b=t.counts,A=it(t);return`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${n(t.pipeline.name)}: ${n(F(t))}</title>
<style>${Ht}${o?mt(T):""}</style>
</head>
<body>
<header style="background:${wt[F(t)]}">
<h1>${n(t.pipeline.name)}: ${n(F(t))}</h1>
<p>${n(t.pipeline.file)} \xB7 started ${n(t.startedAt)} \xB7 ${n(M(t.durationMs))} \xB7 ${b.total} step run(s): ${n(et(t))}${G(t)?` \xB7 limited to: ${n(G(t))}`:""}${A?` \xB7 merged from ${n(A)}`:""}</p>
${pt(t)}${tt(t,r).map(s=>`<p><strong>${n(s)}</strong></p>
`).join("")}</header>
<main>
${o?ft(t,o,T):""}${$?`<h2>Jobs</h2>
<table>
<thead><tr><th>Outcome</th><th>Job</th><th>Step runs</th><th>Duration</th></tr></thead>
<tbody>
${$}
</tbody>
</table>
`:""}${ct(t)}<h2>Timeline${o?" by step":""}</h2>
<div class="legend">${Object.entries(T).filter(([s])=>s!=="under way"||t.merged?.underWay).map(([s,c])=>`<span><i style="background:${c}"></i>${s}</span>`).join("")}</div>
<div class="timeline">
${h}
</div>
<h2>Steps</h2>
${o?`<div class="rows">
${i}
</div>`:`<table>
<thead><tr><th>Outcome</th><th>Step</th><th>Target</th><th>Duration</th><th>Key figures</th></tr></thead>
<tbody>
${i}
</tbody>
</table>`}
${k||y?`<h2>Update reports</h2>
${y}${k}`:""}
<footer>enginectl ${n(t.tool.version)} \xB7 report format ${t.reportVersion}</footer>
</main>
</body>
</html>
`}export{qt as renderHtml};
