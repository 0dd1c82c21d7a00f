import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
var u="default",e=/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;function n(F,t){return t===u?F:`${F}/sites/${encodeURIComponent(t.replace(e,"\uFFFD"))}`}export{u as a,n as b};
