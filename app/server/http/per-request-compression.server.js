import { constants } from "node:zlib";

/**
 * Brotli's options for a response compressed for the one request it answers (a signed-in page, a
 * data request, a search): quality 2 rather than the middleware's 4. At these responses' sizes the
 * bytes quality 4 saves seldom save a round trip, while its CPU is paid on every request
 * (docs/decisions/0098). server.js gives them to the compression middleware; documents are
 * compressed with them in one piece where the server holds them whole (compress-body.server.ts).
 */
export const PER_REQUEST_BROTLI = Object.freeze({ params: Object.freeze({ [constants.BROTLI_PARAM_QUALITY]: 2 }) });
