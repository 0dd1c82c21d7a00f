import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as _}from"./chunk-33OTZADU.mjs";import{d as Z,e as tt,f as et,g as G,h as at,i as lt,k as dt,l as ct}from"./chunk-RGNIAIMX.mjs";import{f as b,g as nt,i as rt,k as L,n as st,p as F,r as ot,s as it,u as J}from"./chunk-JKY75WRD.mjs";import"./chunk-OVS7OY66.mjs";import"./chunk-NAPHYTRD.mjs";import"./chunk-NGRWKBKU.mjs";import"./chunk-FOECKHWR.mjs";import"./chunk-7G6XRFGQ.mjs";import{a as X,c as n}from"./chunk-GUH6SEHT.mjs";import"./chunk-BEKTVRNM.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-QBTB3T6B.mjs";import{o as M}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var K={success:"s",failure:"f",skipped:"k",cancelled:"c","in doubt":"d","under way":"u"},pt=t=>`i${t}`,Mt=t=>t.outcome==="failure"||t.inDoubt!==null;function ut(t){return`
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
${Object.entries(K).map(([c,i])=>`.${i} { background: ${t[c]}; }`).join(`
`)}
`}function mt(t,r,c){let i=e=>e.round===null&&!!e.matrix&&r.key in e.matrix,m=new Map,h=[];for(let e of t.steps)i(e)&&!m.has(e.step)&&(m.set(e.step,h.length),h.push(`${e.step+1}${e.id?` (${e.id})`:""} ${e.uses}`));let o=new Map;r.sites.forEach((e,l)=>o.set(e,l));let a=h.length,f=new Int32Array(r.sites.length*a).fill(-1),S=new Int32Array(f.length),k=new Int32Array(t.steps.length).fill(-1),w=new Uint8Array(r.sites.length),y=new Uint8Array(r.sites.length);t.steps.forEach((e,l)=>{let d=i(e)?o.get(String(e.matrix[r.key])):void 0;if(d===void 0)return;let u=d*a+m.get(e.step);f[u]<0?f[u]=l:k[S[u]]=l,S[u]=l,w[d]=1,Mt(e)&&(y[d]=1)});let g=new Uint8Array(r.sites.length),s=`${r.key}=`;for(let e of t.merged?.noReport??[]){let l=e.startsWith(s)?o.get(e.slice(s.length)):void 0;l!==void 0&&!w[l]&&(g[l]=1)}let p=h.map(n),A=new Map,O=0,H=new Float64Array(r.sites.length).fill(1/0),B=e=>e.flatMap(l=>{let d=o.get(l);return d!==void 0&&(w[d]||g[d])?[d]:[]}),Q=(t.rollout?.waves??[]).map(e=>({w:e,own:B(e.values)}));for(let{w:e,own:l}of Q)for(let d of l)H[d]=e.wave;let wt=(e,l)=>{let d=n(r.sites[e]),u=`<span class="t">${l?`<b>${d}</b>`:""}`;if(g[e])return`${u}<i class="x" title="${d} \xB7 no report: its job died or never ran"></i></span>`;for(let v=0;v<a;v++){if(f[e*a+v]<0){u+=`<i class="n" title="${d} \xB7 ${p[v]} \xB7 not run"></i>`;continue}for(let T=f[e*a+v];T>=0;T=k[T]){let $=t.steps[T],D=b($);A.set(D,(A.get(D)??0)+1);let V=$.inDoubt&&D!=="in doubt"?", in doubt":"";V&&O++,u+=`<a href="#${pt(T)}" class="${K[D]}" title="${d} \xB7 ${p[v]} \xB7 ${D}${V}"></a>`}}return`${u}</span>`},U=(e,l,d=!1)=>`<h3>${n(e)}</h3>
<div class="grid" role="group" aria-label="${n(e)}">${_(l,u=>wt(u,d))}</div>
`,N=r.sites.flatMap((e,l)=>w[l]||g[l]?[l]:[]),j=[],E=N.filter(e=>y[e]);E.length>0&&(E.sort((e,l)=>H[e]-H[l]),j.push(U(`Failed or in doubt: ${x(E.length)} ${r.key}(s)`,E,!0)));let I=N.filter(e=>g[e]);I.length>0&&j.push(U(`No report: ${x(I.length)} ${r.key}(s)`,I,!0));let C=new Uint8Array(r.sites.length);for(let{w:e,own:l}of Q){let d=l.filter($=>!C[$]);for(let $ of d)C[$]=1;let u=d.filter($=>!y[$]&&!g[$]),v=d.length-u.length,T=d.some($=>g[$])?"failed, in doubt or with no report":"failed or in doubt";j.push(U(`Wave ${e.wave}: ${e.outcome.replace(/-/g," ")} \xB7 ${x(d.length)} ${r.key}(s)${v?`, ${x(v)} ${T} (above)`:""}`,u))}let W=N.filter(e=>!C[e]&&!y[e]&&!g[e]);W.length>0&&j.push(U(`${t.rollout?"Outside the waves":"The rest"}: ${x(W.length)} ${r.key}(s)`,W));let yt=["failure","in doubt","cancelled",...t.merged?.underWay?["under way"]:[],"skipped","success"],vt=e=>e==="failure"&&O?` (${x(O)} in doubt)`:"",kt=yt.map(e=>`<span><i style="background:${c[e]}"></i>${e} ${x(A.get(e)??0)}${vt(e)}</span>`).join("")+(I.length?`<span><i class="x"></i>no report ${x(I.length)}</span>`:"");return`<h2>${n(r.key)}: ${x(N.length)} at a glance</h2>
<p class="hint">A tile per ${n(r.key)}, a cell per step, left to right: ${p.join(" \xB7 ")}. Each cell links to its row in the table of steps; hover for what it is.</p>
<div class="legend">${kt}</div>
${j.join("")}`}function ft(t,r){let c=Date.parse(t.startedAt),i=Math.max(1,t.durationMs),m=["failure","in doubt","cancelled","under way","skipped","success"],h=new Map;for(let o of t.steps){let a=h.get(o.step);if(a||h.set(o.step,a={label:`${o.step+1} ${o.uses}`,runs:0,from:1/0,to:-1/0,worst:m.length-1,earlier:0}),a.runs++,a.worst=Math.min(a.worst,m.indexOf(b(o))),o.resume==="earlier-run"&&a.earlier++,!o.startedAt||o.resume==="earlier-run")continue;let f=Date.parse(o.startedAt)-c;a.from=Math.min(a.from,f),a.to=Math.max(a.to,f+(o.durationMs??0))}return[...h.values()].map(o=>{let a=o.from!==1/0,f=a?Math.min(100,Math.max(0,o.from)/i*100):0,S=a?Math.max(.4,Math.min(100-f,(o.to-o.from)/i*100)):0,k=m[o.worst],w=a?`<div class="bar" style="left:${f.toFixed(2)}%;width:${S.toFixed(2)}%;background:${r[k]}" title="${n(k)}"></div>`:"",y=`${o.label} (${x(o.runs)} runs)`;return`<div class="row"><div class="label" title="${n(y)}">${n(y)}</div><div class="track">${w}</div><div class="time">${a?n(M(o.to-o.from)):o.earlier>0?"(earlier run)":""}</div></div>`}).join(`
`)}function P(t){return`${n(t.name)}${t.continuedOnError?" <em>(continue-on-error)</em>":""}${t.resume==="earlier-run"?" <em>(earlier run)</em>":""}${t.inDoubt&&(t.outcome!=="cancelled"||t.decision)||t.decision?` <em>(${n(nt(t))})</em>`:""}`}function Y(t){return t.error?`<div class="error">${n(t.error.message)}</div>${t.error.hint?`<div class="hint">what to do: ${n(t.error.hint)}</div>`:""}`:""}function ht(t){return _(t.steps,(r,c)=>{let i=b(r),m=r.startedAt?` \xB7 ${n(L(r.durationMs,M))}`:"";return`<div id="${pt(c)}" class="r"><span class="badge ${K[i]}">${n(i)}</span>${P(r)}${m}${r.figures?` \xB7 ${n(r.figures)}`:""}${Y(r)}</div>`},`
`)}var x=t=>t.toLocaleString("en");var St=/^(https?:|mailto:|#)/i,Tt=new lt({gfm:!0,async:!1,renderer:{html({text:t}){return n(t)},link({href:t,text:r,tokens:c}){let i=c?this.parser.parseInline(c):n(r);return St.test(t.trim())?`<a href="${n(t)}" rel="noopener noreferrer">${i}</a>`:i},image({text:t}){return`<span class="image">[image: ${n(t)}]</span>`}}});var gt=(16*1024)**2;function $t(){return{left:gt}}function Rt(t){let r=new at({gfm:!0});r.blockTokens(t,r.tokens);let c=0;for(let{src:i}of r.inlineQueue)c+=i.length**2;return c}var z=(t,r)=>`<p class="note">${t}</p><pre class="plain">${n(r)}</pre>`;function bt(t,r){if(t.length>1048576){let i=m=>`${Math.round(m/1024)} KiB`;return z(`This report is ${i(t.length)}: its first ${i(1048576)} are shown as plain text; the JSON report holds it whole (the step's <code>result.report</code>).`,t.slice(0,1048576))}let c=X(t.replace(/\r\n/g,`
`));try{let i=Rt(c);return i>gt?z("This report is shown as plain text: its paragraphs are too long to render as Markdown in a bounded time.",t):i>r.left?z("This report is shown as plain text: the reports above it used what this page renders as Markdown.",t):(r.left-=i,Tt.parse(c))}catch{return z("This report is nested too deep to be shown as Markdown: it is shown as plain text.",t)}}var R={success:"#1a7f37",failure:"#cf222e",skipped:"#8c959f",cancelled:"#bf8700","in doubt":"#bc4c00","under way":"#0969da"},xt={...R,parked:"#8250df"},Ot={...xt,"no report":"#82071e"},At=`
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
`;function Pt(t){let r=et(t),c=Date.parse(t.startedAt),i=Math.max(1,t.durationMs),m=r?ft(t,R):t.steps.map(s=>{let p=s.resume==="earlier-run",A=s.startedAt?Math.max(0,Date.parse(s.startedAt)-c):0,O=Math.min(100,A/i*100),H=s.startedAt?Math.max(.4,Math.min(100-O,(s.durationMs??0)/i*100)):0,B=s.startedAt&&!p?`<div class="bar" style="left:${O.toFixed(2)}%;width:${H.toFixed(2)}%;background:${R[b(s)]}" title="${n(b(s))}"></div>`:"";return`<div class="row"><div class="label" title="${n(s.name)}">${n(s.name)}</div><div class="track">${B}</div><div class="time">${s.startedAt?n(L(s.durationMs,M)):n(b(s))}${p?" (earlier run)":""}</div></div>`}).join(`
`),h=r?ht(t):t.steps.map(s=>`<tr><td><span class="badge" style="background:${R[b(s)]}">${n(b(s))}</span></td><td>${P(s)}<br><code>${n(s.uses)}</code>${G(s)?`<br><small>${n(G(s))}</small>`:""}</td><td>${n(it(s))}</td><td>${s.startedAt?n(L(s.durationMs,M)):""}</td><td>${n(s.figures??"")}${Y(s)}</td></tr>`).join(`
`),o=[],a=0;for(let s of t.steps){let p=ot(s);p&&r&&p.success?a++:p&&o.push({s,u:p})}let f=$t(),S=o.map(({s,u:p})=>`<details open><summary>${n(s.name)}: ${p.success?"succeeded":"failed"}</summary><div class="report">${bt(p.report,f)}</div></details>`).join(`
`),k=a?`<p class="hint">The reports of the ${a.toLocaleString("en")} update(s) that succeeded are in the JSON report.</p>
`:"",w=Z(t).map(s=>`<tr><td><span class="badge" style="background:${Ot[s.status]}">${n(s.status)}</span></td><td>${n(s.label)}</td><td>${n(s.detail)}</td><td>${s.durationMs===null?"":n(M(s.durationMs))}</td></tr>`).join(`
`),y=t.counts,g=tt(t);return`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${n(t.pipeline.name)}: ${n(F(t))}</title>
<style>${At}${r?ut(R):""}</style>
</head>
<body>
<header style="background:${xt[F(t)]}">
<h1>${n(t.pipeline.name)}: ${n(F(t))}</h1>
<p>${n(t.pipeline.file)} \xB7 started ${n(t.startedAt)} \xB7 ${n(M(t.durationMs))} \xB7 ${y.total} step run(s): ${n(st(t))}${J(t)?` \xB7 limited to: ${n(J(t))}`:""}${g?` \xB7 merged from ${n(g)}`:""}</p>
${dt(t)}${rt(t).map(s=>`<p><strong>${n(s)}</strong></p>
`).join("")}</header>
<main>
${r?mt(t,r,R):""}${w?`<h2>Jobs</h2>
<table>
<thead><tr><th>Outcome</th><th>Job</th><th>Step runs</th><th>Duration</th></tr></thead>
<tbody>
${w}
</tbody>
</table>
`:""}${ct(t)}<h2>Timeline${r?" by step":""}</h2>
<div class="legend">${Object.entries(R).filter(([s])=>s!=="under way"||t.merged?.underWay).map(([s,p])=>`<span><i style="background:${p}"></i>${s}</span>`).join("")}</div>
<div class="timeline">
${m}
</div>
<h2>Steps</h2>
${r?`<div class="rows">
${h}
</div>`:`<table>
<thead><tr><th>Outcome</th><th>Step</th><th>Target</th><th>Duration</th><th>Key figures</th></tr></thead>
<tbody>
${h}
</tbody>
</table>`}
${S||k?`<h2>Update reports</h2>
${k}${S}`:""}
<footer>enginectl ${n(t.tool.version)} \xB7 report format ${t.reportVersion}</footer>
</main>
</body>
</html>
`}export{Pt as renderHtml};
