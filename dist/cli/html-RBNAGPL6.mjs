import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as W}from"./chunk-33OTZADU.mjs";import{d as Q,e as X,f as Z,g as J,i as ot,k as it,l as at}from"./chunk-XWSAE56C.mjs";import{f as b,g as tt,i as et,k as I,n as nt,p as F,r as st,s as rt,u as _}from"./chunk-AOTK3CUC.mjs";import"./chunk-3MDRZ67H.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-SXD2BRGN.mjs";import"./chunk-UUTMKJPH.mjs";import"./chunk-YPOBTAFB.mjs";import{a as V,c as n}from"./chunk-UY2WPAHN.mjs";import"./chunk-CI57L6OA.mjs";import"./chunk-PW43Y33T.mjs";import{d as k}from"./chunk-JQWCGJAR.mjs";import"./chunk-TR2GVION.mjs";import"./chunk-BATXWL3Q.mjs";import"./chunk-HDDVMAG4.mjs";var G={success:"s",failure:"f",skipped:"k",cancelled:"c","in doubt":"d","under way":"u"},lt=t=>`i${t}`,xt=t=>t.outcome==="failure"||t.inDoubt!==null;function dt(t){return`
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
${Object.entries(G).map(([p,d])=>`.${d} { background: ${t[p]}; }`).join(`
`)}
`}function pt(t,r,p){let d=e=>e.round===null&&!!e.matrix&&r.key in e.matrix,f=new Map,h=[];for(let e of t.steps)d(e)&&!f.has(e.step)&&(f.set(e.step,h.length),h.push(`${e.step+1}${e.id?` (${e.id})`:""} ${e.uses}`));let o=new Map;r.sites.forEach((e,i)=>o.set(e,i));let a=h.length,c=new Int32Array(r.sites.length*a).fill(-1),S=new Int32Array(c.length),y=new Int32Array(t.steps.length).fill(-1),v=new Uint8Array(r.sites.length),$=new Uint8Array(r.sites.length);t.steps.forEach((e,i)=>{let l=d(e)?o.get(String(e.matrix[r.key])):void 0;if(l===void 0)return;let m=l*a+f.get(e.step);c[m]<0?c[m]=i:y[S[m]]=i,S[m]=i,v[l]=1,xt(e)&&($[l]=1)});let s=new Uint8Array(r.sites.length),u=`${r.key}=`;for(let e of t.merged?.noReport??[]){let i=e.startsWith(u)?o.get(e.slice(u.length)):void 0;i!==void 0&&!v[i]&&(s[i]=1)}let T=h.map(n),O=new Map,A=0,z=new Float64Array(r.sites.length).fill(1/0),ft=e=>e.flatMap(i=>{let l=o.get(i);return l!==void 0&&(v[l]||s[l])?[l]:[]}),Y=(t.rollout?.waves??[]).map(e=>({w:e,own:ft(e.values)}));for(let{w:e,own:i}of Y)for(let l of i)z[l]=e.wave;let ht=(e,i)=>{let l=n(r.sites[e]),m=`<span class="t">${i?`<b>${l}</b>`:""}`;if(s[e])return`${m}<i class="x" title="${l} \xB7 no report: its job died or never ran"></i></span>`;for(let w=0;w<a;w++){if(c[e*a+w]<0){m+=`<i class="n" title="${l} \xB7 ${T[w]} \xB7 not run"></i>`;continue}for(let R=c[e*a+w];R>=0;R=y[R]){let g=t.steps[R],D=b(g);O.set(D,(O.get(D)??0)+1);let q=g.inDoubt&&D!=="in doubt"?", in doubt":"";q&&A++,m+=`<a href="#${lt(R)}" class="${G[D]}" title="${l} \xB7 ${T[w]} \xB7 ${D}${q}"></a>`}}return`${m}</span>`},U=(e,i,l=!1)=>`<h3>${n(e)}</h3>
<div class="grid" role="group" aria-label="${n(e)}">${W(i,m=>ht(m,l))}</div>
`,L=r.sites.flatMap((e,i)=>v[i]||s[i]?[i]:[]),H=[],N=L.filter(e=>$[e]);N.length>0&&(N.sort((e,i)=>z[e]-z[i]),H.push(U(`Failed or in doubt: ${x(N.length)} ${r.key}(s)`,N,!0)));let j=L.filter(e=>s[e]);j.length>0&&H.push(U(`No report: ${x(j.length)} ${r.key}(s)`,j,!0));let C=new Uint8Array(r.sites.length);for(let{w:e,own:i}of Y){let l=i.filter(g=>!C[g]);for(let g of l)C[g]=1;let m=l.filter(g=>!$[g]&&!s[g]),w=l.length-m.length,R=l.some(g=>s[g])?"failed, in doubt or with no report":"failed or in doubt";H.push(U(`Wave ${e.wave}: ${e.outcome.replace(/-/g," ")} \xB7 ${x(l.length)} ${r.key}(s)${w?`, ${x(w)} ${R} (above)`:""}`,m))}let E=L.filter(e=>!C[e]&&!$[e]&&!s[e]);E.length>0&&H.push(U(`${t.rollout?"Outside the waves":"The rest"}: ${x(E.length)} ${r.key}(s)`,E));let gt=["failure","in doubt","cancelled",...t.merged?.underWay?["under way"]:[],"skipped","success"],$t=e=>e==="failure"&&A?` (${x(A)} in doubt)`:"",bt=gt.map(e=>`<span><i style="background:${p[e]}"></i>${e} ${x(O.get(e)??0)}${$t(e)}</span>`).join("")+(j.length?`<span><i class="x"></i>no report ${x(j.length)}</span>`:"");return`<h2>${n(r.key)}: ${x(L.length)} at a glance</h2>
<p class="hint">A tile per ${n(r.key)}, a cell per step, left to right: ${T.join(" \xB7 ")}. Each cell links to its row in the table of steps; hover for what it is.</p>
<div class="legend">${bt}</div>
${H.join("")}`}function ct(t,r){let p=Date.parse(t.startedAt),d=Math.max(1,t.durationMs),f=["failure","in doubt","cancelled","under way","skipped","success"],h=new Map;for(let o of t.steps){let a=h.get(o.step);if(a||h.set(o.step,a={label:`${o.step+1} ${o.uses}`,runs:0,from:1/0,to:-1/0,worst:f.length-1}),a.runs++,a.worst=Math.min(a.worst,f.indexOf(b(o))),!o.startedAt)continue;let c=Date.parse(o.startedAt)-p;a.from=Math.min(a.from,c),a.to=Math.max(a.to,c+(o.durationMs??0))}return[...h.values()].map(o=>{let a=o.from!==1/0,c=a?Math.min(100,Math.max(0,o.from)/d*100):0,S=a?Math.max(.4,Math.min(100-c,(o.to-o.from)/d*100)):0,y=f[o.worst],v=a?`<div class="bar" style="left:${c.toFixed(2)}%;width:${S.toFixed(2)}%;background:${r[y]}" title="${n(y)}"></div>`:"",$=`${o.label} (${x(o.runs)} runs)`;return`<div class="row"><div class="label" title="${n($)}">${n($)}</div><div class="track">${v}</div><div class="time">${a?n(k(o.to-o.from)):""}</div></div>`}).join(`
`)}function K(t){return`${n(t.name)}${t.continuedOnError?" <em>(continue-on-error)</em>":""}${t.resume==="earlier-run"?" <em>(earlier run)</em>":""}${t.inDoubt&&(t.outcome!=="cancelled"||t.decision)||t.decision?` <em>(${n(tt(t))})</em>`:""}`}function P(t){return t.error?`<div class="error">${n(t.error.message)}</div>${t.error.hint?`<div class="hint">what to do: ${n(t.error.hint)}</div>`:""}`:""}function ut(t){return W(t.steps,(r,p)=>{let d=b(r),f=r.startedAt?` \xB7 ${n(I(r.durationMs,k))}`:"";return`<div id="${lt(p)}" class="r"><span class="badge ${G[d]}">${n(d)}</span>${K(r)}${f}${r.figures?` \xB7 ${n(r.figures)}`:""}${P(r)}</div>`},`
`)}var x=t=>t.toLocaleString("en");var wt=/^(https?:|mailto:|#)/i,yt=new ot({gfm:!0,async:!1,renderer:{html({text:t}){return n(t)},link({href:t,text:r,tokens:p}){let d=p?this.parser.parseInline(p):n(r);return wt.test(t.trim())?`<a href="${n(t)}" rel="noopener noreferrer">${d}</a>`:d},image({text:t}){return`<span class="image">[image: ${n(t)}]</span>`}}});function mt(t){if(t.length>1048576){let r=p=>`${Math.round(p/1024)} KiB`;return`<p class="note">This report is ${r(t.length)}: its first ${r(1048576)} are shown as plain text; the JSON report holds it whole (the step's <code>result.report</code>).</p><pre class="plain">${n(t.slice(0,1048576))}</pre>`}try{return yt.parse(V(t.replace(/\r\n/g,`
`)))}catch{return`<p class="note">This report is nested too deep to be shown as Markdown: it is shown as plain text.</p><pre class="plain">${n(t)}</pre>`}}var M={success:"#1a7f37",failure:"#cf222e",skipped:"#8c959f",cancelled:"#bf8700","in doubt":"#bc4c00","under way":"#0969da"},vt={...M,"no report":"#82071e"},kt={...M,parked:"#8250df"},Mt=`
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
`;function _t(t){let r=Z(t),p=Date.parse(t.startedAt),d=Math.max(1,t.durationMs),f=r?ct(t,M):t.steps.map(s=>{let u=s.startedAt?Math.max(0,Date.parse(s.startedAt)-p):0,T=Math.min(100,u/d*100),O=s.startedAt?Math.max(.4,Math.min(100-T,(s.durationMs??0)/d*100)):0,A=s.startedAt?`<div class="bar" style="left:${T.toFixed(2)}%;width:${O.toFixed(2)}%;background:${M[b(s)]}" title="${n(b(s))}"></div>`:"";return`<div class="row"><div class="label" title="${n(s.name)}">${n(s.name)}</div><div class="track">${A}</div><div class="time">${s.startedAt?n(I(s.durationMs,k)):n(b(s))}</div></div>`}).join(`
`),h=r?ut(t):t.steps.map(s=>`<tr><td><span class="badge" style="background:${M[b(s)]}">${n(b(s))}</span></td><td>${K(s)}<br><code>${n(s.uses)}</code>${J(s)?`<br><small>${n(J(s))}</small>`:""}</td><td>${n(rt(s))}</td><td>${s.startedAt?n(I(s.durationMs,k)):""}</td><td>${n(s.figures??"")}${P(s)}</td></tr>`).join(`
`),o=[],a=0;for(let s of t.steps){let u=st(s);u&&r&&u.success?a++:u&&o.push({s,u})}let c=o.map(({s,u})=>`<details open><summary>${n(s.name)}: ${u.success?"succeeded":"failed"}</summary><div class="report">${mt(u.report)}</div></details>`).join(`
`),S=a?`<p class="hint">The reports of the ${a.toLocaleString("en")} update(s) that succeeded are in the JSON report.</p>
`:"",y=Q(t).map(s=>`<tr><td><span class="badge" style="background:${vt[s.status]}">${n(s.status)}</span></td><td>${n(s.label)}</td><td>${n(s.detail)}</td><td>${s.durationMs===null?"":n(k(s.durationMs))}</td></tr>`).join(`
`),v=t.counts,$=X(t);return`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${n(t.pipeline.name)}: ${n(F(t))}</title>
<style>${Mt}${r?dt(M):""}</style>
</head>
<body>
<header style="background:${kt[F(t)]}">
<h1>${n(t.pipeline.name)}: ${n(F(t))}</h1>
<p>${n(t.pipeline.file)} \xB7 started ${n(t.startedAt)} \xB7 ${n(k(t.durationMs))} \xB7 ${v.total} step run(s): ${n(nt(t))}${_(t)?` \xB7 limited to: ${n(_(t))}`:""}${$?` \xB7 merged from ${n($)}`:""}</p>
${it(t)}${et(t).map(s=>`<p><strong>${n(s)}</strong></p>
`).join("")}</header>
<main>
${r?pt(t,r,M):""}${y?`<h2>Jobs</h2>
<table>
<thead><tr><th>Outcome</th><th>Job</th><th>Step runs</th><th>Duration</th></tr></thead>
<tbody>
${y}
</tbody>
</table>
`:""}${at(t)}<h2>Timeline${r?" by step":""}</h2>
<div class="legend">${Object.entries(M).filter(([s])=>s!=="under way"||t.merged?.underWay).map(([s,u])=>`<span><i style="background:${u}"></i>${s}</span>`).join("")}</div>
<div class="timeline">
${f}
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
${c||S?`<h2>Update reports</h2>
${S}${c}`:""}
<footer>enginectl ${n(t.tool.version)} \xB7 report format ${t.reportVersion}</footer>
</main>
</body>
</html>
`}export{_t as renderHtml};
