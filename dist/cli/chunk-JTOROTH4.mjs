import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
function t(e,n){if(!(n?.code!=="ENOENT"||!e.includes("\uFFFD")))return"the name holds \uFFFD (U+FFFD), which stands for bytes that are not UTF-8: enginectl is given that character, not the bytes, so no file of that name is found; rename the file with UTF-8 characters only"}export{t as a};
