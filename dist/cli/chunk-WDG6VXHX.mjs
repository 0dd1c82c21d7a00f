import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{d as a}from"./chunk-27MPRGAQ.mjs";import{b as r,d as l}from"./chunk-WUGSQBOW.mjs";var h="no report",p="no report: its job died or never ran";function m(e){return e.merged?[...e.merged.reports.map(t=>({label:t.limitedTo??t.source,status:t.outcome,detail:`${t.counts.total} step run(s): ${a(t.counts)}`,durationMs:t.durationMs,source:t.source})),...e.merged.noReport.map(t=>({label:t,status:h,detail:p,durationMs:null,source:null}))]:[]}function f(e){if(!e.merged)return;let{reports:t,noReport:n}=e.merged;return`${t.length} job report(s)${n.length?`, ${n.length} instance(s) without a report (${n.join(", ")})`:""}`}var s={done:"\u2705 done","failed-within-budget":"\u26A0\uFE0F failed within budget",halted:"\u274C halted","not-started":"\u23F8\uFE0F not started",cancelled:"\u25A0 cancelled"},u="Nothing was undone; the waves after it did not start.",d=e=>e.values.length>8?`${e.values.slice(0,8).join(", ")} and ${e.values.length-8} more`:e.values.join(", "),i=e=>e.analysis?`${e.analysis.passed?"held":"failed"}: ${e.analysis.text}`:"";function R(e){let t=e.rollout;if(!t)return[];let n=["### Waves",""];t.halted&&n.push(`**The rollout halted at wave ${t.halted.wave}**: ${l(t.halted.reason)}. ${u}`,""),n.push(`| Wave | ${l(t.over)} | Outcome | Failed | Budget | Analysis after it |`,"|---|---|---|---|---|---|");for(let o of t.waves)n.push(`| ${o.wave} | ${l(d(o))} | ${s[o.outcome]} | ${l(o.failed.join(", "))} | ${o.budget} | ${l(i(o))} |`);return n.push("","### Steps",""),n}function g(e){let t=e.rollout?.halted;return t?`<p><strong>The rollout halted at wave ${t.wave}</strong>: ${r(t.reason)}. ${u}</p>
`:""}function b(e){let t=e.rollout;if(!t)return"";let n=t.waves.map(o=>`<tr><td>${o.wave}</td><td>${r(d(o))}</td><td>${r(s[o.outcome])}</td><td>${r(o.failed.join(", "))}</td><td>${o.budget}</td><td>${r(i(o))}</td></tr>`);return`<h2>Waves</h2>
<table>
<thead><tr><th>Wave</th><th>${r(t.over)}</th><th>Outcome</th><th>Failed</th><th>Budget</th><th>Analysis after it</th></tr></thead>
<tbody>
${n.join(`
`)}
</tbody>
</table>
`}export{p as a,m as b,f as c,R as d,g as e,b as f};
