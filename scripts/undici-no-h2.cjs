/* global module */
// In place of undici's HTTP/2 client (lib/dispatcher/client-h2.js), which loads node:http2 when
// undici loads (~5 ms of every run that makes a call). enginectl never offers h2 (allowH2 is
// off), so a server cannot pick it; if one ever did, the call fails saying why.
module.exports = function connectH2() {
  throw new Error('HTTP/2 is not built into enginectl: the server chose h2 though it was not offered');
};
