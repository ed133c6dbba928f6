/**
 * The HTTP exchange moved to common/upstream/http-exchange.ts, below both training logs. OAuth mode's code,
 * which other work is changing, still imports it from here; it imports from common/upstream/ once that work
 * lands, and this file goes.
 */
export { createHttpSender, HttpExchangeError, type HttpAnswer, type HttpRequest, type SendHttp } from "../common/upstream/http-exchange.ts";
