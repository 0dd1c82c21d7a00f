import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
var t={PROD_TOKEN:"prod-token",STAGING_TOKEN:"staging-token",PROD_DEPLOY_PASSWORD:"deploy-pass",TEST_DEPLOY_PASSWORD:"deploy-pass"};function r(e){return{...t,...Object.fromEntries(Object.entries(e).filter(([,n])=>n!==void 0))}}export{r as a};
