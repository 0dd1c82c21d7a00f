// Fault injection: rules that make matching requests slow, fail, drop or garble. Set from the CLI
// (`--fault "POST /api/devops/v1/update/vfs status=503 times=2"`), from code, or over HTTP (POST
// /_emulator/faults). Each kind of fault is an object of its own file; kinds.ts lists them.
export { FaultSet } from './fault-set.ts';
export { describeRule, matches, type FaultRule } from './rule.ts';
export { parseFault, ruleFromJson } from './parse.ts';
export { FAULT_KINDS, FAULT_SETTINGS, kindsOf } from './kinds.ts';
export type { FaultKind, FaultSetting, SiteClock } from './kind.ts';
export { faultTable, faultUsageLines, withFaultTable } from './docs.ts';
