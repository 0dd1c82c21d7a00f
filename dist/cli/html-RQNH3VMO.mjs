import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as _}from"./chunk-33OTZADU.mjs";import{d as Z,e as tt,f as et,g as G,h as at,i as dt,k as lt,l as ct}from"./chunk-WSTWJQSQ.mjs";import{f as b,g as nt,i as st,k as L,n as rt,p as F,r as ot,s as it,u as J}from"./chunk-AKW53AM2.mjs";import"./chunk-3MDRZ67H.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-BTSQROBY.mjs";import"./chunk-NGRWKBKU.mjs";import"./chunk-2Q62PXL4.mjs";import{a as X,c as n}from"./chunk-GUH6SEHT.mjs";import"./chunk-ID4GJRPP.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-QBTB3T6B.mjs";import{o as M}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var K={success:"s",failure:"f",skipped:"k",cancelled:"c","in doubt":"d","under way":"u"},pt=t=>`i${t}`,Mt=t=>t.outcome==="failure"||t.inDoubt!==null;function ut(t){return`
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
`}function mt(t,s,c){let i=e=>e.round===null&&!!e.matrix&&s.key in e.matrix,m=new Map,h=[];for(let e of t.steps)i(e)&&!m.has(e.step)&&(m.set(e.step,h.length),h.push(`${e.step+1}${e.id?` (${e.id})`:""} ${e.uses}`));let o=new Map;s.sites.forEach((e,a)=>o.set(e,a));let d=h.length,f=new Int32Array(s.sites.length*d).fill(-1),S=new Int32Array(f.length),k=new Int32Array(t.steps.length).fill(-1),w=new Uint8Array(s.sites.length),y=new Uint8Array(s.sites.length);t.steps.forEach((e,a)=>{let l=i(e)?o.get(String(e.matrix[s.key])):void 0;if(l===void 0)return;let u=l*d+m.get(e.step);f[u]<0?f[u]=a:k[S[u]]=a,S[u]=a,w[l]=1,Mt(e)&&(y[l]=1)});let g=new Uint8Array(s.sites.length),r=`${s.key}=`;for(let e of t.merged?.noReport??[]){let a=e.startsWith(r)?o.get(e.slice(r.length)):void 0;a!==void 0&&!w[a]&&(g[a]=1)}let p=h.map(n),A=new Map,O=0,H=new Float64Array(s.sites.length).fill(1/0),B=e=>e.flatMap(a=>{let l=o.get(a);return l!==void 0&&(w[l]||g[l])?[l]:[]}),Q=(t.rollout?.waves??[]).map(e=>({w:e,own:B(e.values)}));for(let{w:e,own:a}of Q)for(let l of a)H[l]=e.wave;let wt=(e,a)=>{let l=n(s.sites[e]),u=`<span class="t">${a?`<b>${l}</b>`:""}`;if(g[e])return`${u}<i class="x" title="${l} \xB7 no report: its job died or never ran"></i></span>`;for(let v=0;v<d;v++){if(f[e*d+v]<0){u+=`<i class="n" title="${l} \xB7 ${p[v]} \xB7 not run"></i>`;continue}for(let T=f[e*d+v];T>=0;T=k[T]){let $=t.steps[T],D=b($);A.set(D,(A.get(D)??0)+1);let V=$.inDoubt&&D!=="in doubt"?", in doubt":"";V&&O++,u+=`<a href="#${pt(T)}" class="${K[D]}" title="${l} \xB7 ${p[v]} \xB7 ${D}${V}"></a>`}}return`${u}</span>`},U=(e,a,l=!1)=>`<h3>${n(e)}</h3>
<div class="grid" role="group" aria-label="${n(e)}">${_(a,u=>wt(u,l))}</div>
`,N=s.sites.flatMap((e,a)=>w[a]||g[a]?[a]:[]),j=[],E=N.filter(e=>y[e]);E.length>0&&(E.sort((e,a)=>H[e]-H[a]),j.push(U(`Failed or in doubt: ${x(E.length)} ${s.key}(s)`,E,!0)));let I=N.filter(e=>g[e]);I.length>0&&j.push(U(`No report: ${x(I.length)} ${s.key}(s)`,I,!0));let C=new Uint8Array(s.sites.length);for(let{w:e,own:a}of Q){let l=a.filter($=>!C[$]);for(let $ of l)C[$]=1;let u=l.filter($=>!y[$]&&!g[$]),v=l.length-u.length,T=l.some($=>g[$])?"failed, in doubt or with no report":"failed or in doubt";j.push(U(`Wave ${e.wave}: ${e.outcome.replace(/-/g," ")} \xB7 ${x(l.length)} ${s.key}(s)${v?`, ${x(v)} ${T} (above)`:""}`,u))}let W=N.filter(e=>!C[e]&&!y[e]&&!g[e]);W.length>0&&j.push(U(`${t.rollout?"Outside the waves":"The rest"}: ${x(W.length)} ${s.key}(s)`,W));let yt=["failure","in doubt","cancelled",...t.merged?.underWay?["under way"]:[],"skipped","success"],vt=e=>e==="failure"&&O?` (${x(O)} in doubt)`:"",kt=yt.map(e=>`<span><i style="background:${c[e]}"></i>${e} ${x(A.get(e)??0)}${vt(e)}</span>`).join("")+(I.length?`<span><i class="x"></i>no report ${x(I.length)}</span>`:"");return`<h2>${n(s.key)}: ${x(N.length)} at a glance</h2>
<p class="hint">A tile per ${n(s.key)}, a cell per step, left to right: ${p.join(" \xB7 ")}. Each cell links to its row in the table of steps; hover for what it is.</p>
<div class="legend">${kt}</div>
${j.join("")}`}function ft(t,s){let c=Date.parse(t.startedAt),i=Math.max(1,t.durationMs),m=["failure","in doubt","cancelled","under way","skipped","success"],h=new Map;for(let o of t.steps){let d=h.get(o.step);if(d||h.set(o.step,d={label:`${o.step+1} ${o.uses}`,runs:0,from:1/0,to:-1/0,worst:m.length-1}),d.runs++,d.worst=Math.min(d.worst,m.indexOf(b(o))),!o.startedAt)continue;let f=Date.parse(o.startedAt)-c;d.from=Math.min(d.from,f),d.to=Math.max(d.to,f+(o.durationMs??0))}return[...h.values()].map(o=>{let d=o.from!==1/0,f=d?Math.min(100,Math.max(0,o.from)/i*100):0,S=d?Math.max(.4,Math.min(100-f,(o.to-o.from)/i*100)):0,k=m[o.worst],w=d?`<div class="bar" style="left:${f.toFixed(2)}%;width:${S.toFixed(2)}%;background:${s[k]}" title="${n(k)}"></div>`:"",y=`${o.label} (${x(o.runs)} runs)`;return`<div class="row"><div class="label" title="${n(y)}">${n(y)}</div><div class="track">${w}</div><div class="time">${d?n(M(o.to-o.from)):""}</div></div>`}).join(`
`)}function P(t){return`${n(t.name)}${t.continuedOnError?" <em>(continue-on-error)</em>":""}${t.resume==="earlier-run"?" <em>(earlier run)</em>":""}${t.inDoubt&&(t.outcome!=="cancelled"||t.decision)||t.decision?` <em>(${n(nt(t))})</em>`:""}`}function Y(t){return t.error?`<div class="error">${n(t.error.message)}</div>${t.error.hint?`<div class="hint">what to do: ${n(t.error.hint)}</div>`:""}`:""}function ht(t){return _(t.steps,(s,c)=>{let i=b(s),m=s.startedAt?` \xB7 ${n(L(s.durationMs,M))}`:"";return`<div id="${pt(c)}" class="r"><span class="badge ${K[i]}">${n(i)}</span>${P(s)}${m}${s.figures?` \xB7 ${n(s.figures)}`:""}${Y(s)}</div>`},`
`)}var x=t=>t.toLocaleString("en");var St=/^(https?:|mailto:|#)/i,Tt=new dt({gfm:!0,async:!1,renderer:{html({text:t}){return n(t)},link({href:t,text:s,tokens:c}){let i=c?this.parser.parseInline(c):n(s);return St.test(t.trim())?`<a href="${n(t)}" rel="noopener noreferrer">${i}</a>`:i},image({text:t}){return`<span class="image">[image: ${n(t)}]</span>`}}});var gt=(16*1024)**2;function $t(){return{left:gt}}function Rt(t){let s=new at({gfm:!0});s.blockTokens(t,s.tokens);let c=0;for(let{src:i}of s.inlineQueue)c+=i.length**2;return c}var z=(t,s)=>`<p class="note">${t}</p><pre class="plain">${n(s)}</pre>`;function bt(t,s){if(t.length>1048576){let i=m=>`${Math.round(m/1024)} KiB`;return z(`This report is ${i(t.length)}: its first ${i(1048576)} are shown as plain text; the JSON report holds it whole (the step's <code>result.report</code>).`,t.slice(0,1048576))}let c=X(t.replace(/\r\n/g,`
`));try{let i=Rt(c);return i>gt?z("This report is shown as plain text: its paragraphs are too long to render as Markdown in a bounded time.",t):i>s.left?z("This report is shown as plain text: the reports above it used what this page renders as Markdown.",t):(s.left-=i,Tt.parse(c))}catch{return z("This report is nested too deep to be shown as Markdown: it is shown as plain text.",t)}}var R={success:"#1a7f37",failure:"#cf222e",skipped:"#8c959f",cancelled:"#bf8700","in doubt":"#bc4c00","under way":"#0969da"},xt={...R,parked:"#8250df"},Ot={...xt,"no report":"#82071e"},At=`
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
`;function Pt(t){let s=et(t),c=Date.parse(t.startedAt),i=Math.max(1,t.durationMs),m=s?ft(t,R):t.steps.map(r=>{let p=r.resume==="earlier-run",A=r.startedAt?Math.max(0,Date.parse(r.startedAt)-c):0,O=Math.min(100,A/i*100),H=r.startedAt?Math.max(.4,Math.min(100-O,(r.durationMs??0)/i*100)):0,B=r.startedAt&&!p?`<div class="bar" style="left:${O.toFixed(2)}%;width:${H.toFixed(2)}%;background:${R[b(r)]}" title="${n(b(r))}"></div>`:"";return`<div class="row"><div class="label" title="${n(r.name)}">${n(r.name)}</div><div class="track">${B}</div><div class="time">${r.startedAt?n(L(r.durationMs,M)):n(b(r))}${p?" (earlier run)":""}</div></div>`}).join(`
`),h=s?ht(t):t.steps.map(r=>`<tr><td><span class="badge" style="background:${R[b(r)]}">${n(b(r))}</span></td><td>${P(r)}<br><code>${n(r.uses)}</code>${G(r)?`<br><small>${n(G(r))}</small>`:""}</td><td>${n(it(r))}</td><td>${r.startedAt?n(L(r.durationMs,M)):""}</td><td>${n(r.figures??"")}${Y(r)}</td></tr>`).join(`
`),o=[],d=0;for(let r of t.steps){let p=ot(r);p&&s&&p.success?d++:p&&o.push({s:r,u:p})}let f=$t(),S=o.map(({s:r,u:p})=>`<details open><summary>${n(r.name)}: ${p.success?"succeeded":"failed"}</summary><div class="report">${bt(p.report,f)}</div></details>`).join(`
`),k=d?`<p class="hint">The reports of the ${d.toLocaleString("en")} update(s) that succeeded are in the JSON report.</p>
`:"",w=Z(t).map(r=>`<tr><td><span class="badge" style="background:${Ot[r.status]}">${n(r.status)}</span></td><td>${n(r.label)}</td><td>${n(r.detail)}</td><td>${r.durationMs===null?"":n(M(r.durationMs))}</td></tr>`).join(`
`),y=t.counts,g=tt(t);return`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${n(t.pipeline.name)}: ${n(F(t))}</title>
<style>${At}${s?ut(R):""}</style>
</head>
<body>
<header style="background:${xt[F(t)]}">
<h1>${n(t.pipeline.name)}: ${n(F(t))}</h1>
<p>${n(t.pipeline.file)} \xB7 started ${n(t.startedAt)} \xB7 ${n(M(t.durationMs))} \xB7 ${y.total} step run(s): ${n(rt(t))}${J(t)?` \xB7 limited to: ${n(J(t))}`:""}${g?` \xB7 merged from ${n(g)}`:""}</p>
${lt(t)}${st(t).map(r=>`<p><strong>${n(r)}</strong></p>
`).join("")}</header>
<main>
${s?mt(t,s,R):""}${w?`<h2>Jobs</h2>
<table>
<thead><tr><th>Outcome</th><th>Job</th><th>Step runs</th><th>Duration</th></tr></thead>
<tbody>
${w}
</tbody>
</table>
`:""}${ct(t)}<h2>Timeline${s?" by step":""}</h2>
<div class="legend">${Object.entries(R).filter(([r])=>r!=="under way"||t.merged?.underWay).map(([r,p])=>`<span><i style="background:${p}"></i>${r}</span>`).join("")}</div>
<div class="timeline">
${m}
</div>
<h2>Steps</h2>
${s?`<div class="rows">
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
