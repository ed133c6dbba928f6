/**
 * A Telegram Bot API server on loopback, for host checks that hold a conversation through the host's
 * Telegram channel (`channels.telegram.accounts.<id>.apiRoot` points the host at it).
 *
 * It speaks the Bot API's HTTP shape: `POST|GET /bot<token>/<method>`, parameters as JSON, form or
 * query, answers `{ok: true, result}` or `{ok: false, error_code, description}`. The athlete's side is
 * driven by the check: `send(text)` queues a private message update, `press(buttonText)` queues the
 * callback of an inline button the bot sent. `getUpdates` long-polls as the real one does (offset
 * confirms earlier updates, `timeout` in seconds). Every bot call is recorded with the token it came
 * with, so a check can tell which bot account sent what.
 *
 * `deleteMessage` removes the message from the chat as the athlete sees it (`messages()`); `deleted()`
 * keeps what was removed. Methods the host calls that change nothing here (chat actions, commands
 * menu, reactions, webhook removal) answer `true`; a method it does not know is recorded and answered
 * `true` too, so a host upgrade that starts calling something new shows up in `calls` instead of
 * failing a turn.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface TelegramUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface BotApiCall {
  token: string;
  method: string;
  params: Record<string, unknown>;
  at: number;
}

/** A message a bot sent (sendMessage) or changed (editMessageText), as the athlete's chat shows it. */
export interface BotMessage {
  token: string;
  message_id: number;
  chat_id: number;
  text: string;
  reply_markup?: InlineKeyboard;
  edited: boolean;
}

type InlineKeyboard = { inline_keyboard?: Array<Array<{ text: string; callback_data?: string }>> };

interface Waiter {
  token: string;
  offset: number;
  resolve: (updates: unknown[]) => void;
}

export interface FakeTelegramBotApi {
  /** The value for `apiRoot` (no `/bot<token>` part). */
  readonly apiRoot: string;
  readonly athlete: TelegramUser;
  /** Every bot call so far, in order. */
  readonly calls: readonly BotApiCall[];
  /** Messages bots sent to chats and did not delete (latest text after edits), in order of first sending. */
  messages(filter?: { token?: string; chatId?: number }): BotMessage[];
  /** Messages bots sent and then deleted (their text when deleted), in order of deletion. */
  deleted(filter?: { token?: string }): BotMessage[];
  /** Queues a private text message from the athlete to the bot with this token. */
  send(token: string, text: string): void;
  /** Queues the athlete's press of the inline button whose text matches, on the newest bot message that has one. */
  press(token: string, buttonText: RegExp): { messageId: number; data: string };
  /** Resolves when `predicate` holds for the recorded messages (checked after every bot call), or rejects after `timeoutMs`. */
  waitFor<T>(describe: string, predicate: () => T | undefined, timeoutMs: number): Promise<T>;
  close(): Promise<void>;
}

export async function startFakeTelegramBotApi(options: { athlete?: TelegramUser } = {}): Promise<FakeTelegramBotApi> {
  const athlete: TelegramUser = options.athlete ?? { id: 5550001, is_bot: false, first_name: "Maya", username: "maya_trains" };
  const calls: BotApiCall[] = [];
  const sent = new Map<string, BotMessage>(); // key `${token}:${message_id}`
  const removed: BotMessage[] = [];
  const updates = new Map<string, Array<{ update_id: number } & Record<string, unknown>>>(); // per token
  const waiters = new Set<Waiter>();
  const listeners = new Set<() => void>();
  let nextUpdateId = 1000;
  let nextMessageId = 1;
  const botIds = new Map<string, number>();

  const botUser = (token: string): TelegramUser => {
    const id = Number(token.split(":")[0]) || 100000 + botIds.size;
    botIds.set(token, id);
    return { id, is_bot: true, first_name: "Coach", username: `coach_${id}_bot` };
  };
  const chat = {
    id: athlete.id,
    type: "private",
    first_name: athlete.first_name,
    ...(athlete.username ? { username: athlete.username } : {}),
  };
  const now = (): number => Math.floor(Date.now() / 1000);
  const notify = (): void => {
    for (const listener of listeners) listener();
  };

  const pending = (token: string, offset: number): unknown[] => (updates.get(token) ?? []).filter((update) => update.update_id >= offset);
  const enqueue = (token: string, update: Record<string, unknown>): void => {
    const list = updates.get(token) ?? [];
    list.push({ update_id: nextUpdateId++, ...update });
    updates.set(token, list);
    for (const waiter of [...waiters]) {
      if (waiter.token !== token) continue;
      const ready = pending(token, waiter.offset);
      if (ready.length > 0) {
        waiters.delete(waiter);
        waiter.resolve(ready);
      }
    }
  };

  const recordMessage = (token: string, params: Record<string, unknown>, messageId: number, edited: boolean): Record<string, unknown> => {
    const key = `${token}:${messageId}`;
    const before = sent.get(key);
    const text = typeof params["text"] === "string" ? params["text"] : (before?.text ?? "");
    const markup = parseJsonParam(params["reply_markup"]) as InlineKeyboard | undefined;
    const message: BotMessage = {
      token,
      message_id: messageId,
      chat_id: Number(params["chat_id"] ?? before?.chat_id ?? chat.id),
      text,
      ...((markup ?? before?.reply_markup) ? { reply_markup: markup ?? before?.reply_markup } : {}),
      edited,
    };
    sent.set(key, message);
    return {
      message_id: messageId,
      from: botUser(token),
      chat,
      date: now(),
      text,
      ...(message.reply_markup ? { reply_markup: message.reply_markup } : {}),
    };
  };

  const handle = async (token: string, method: string, params: Record<string, unknown>): Promise<{ status: number; body: unknown }> => {
    calls.push({ token, method, params, at: Date.now() });
    const ok = (result: unknown) => ({ status: 200, body: { ok: true, result } });
    switch (method) {
      case "getMe":
        return ok({ ...botUser(token), can_join_groups: false, can_read_all_group_messages: false, supports_inline_queries: false });
      case "getUpdates": {
        const offset = Number(params["offset"] ?? 0);
        // Confirming an offset drops what came before it, as Telegram does.
        const list = (updates.get(token) ?? []).filter((update) => update.update_id >= offset);
        updates.set(token, list);
        if (list.length > 0) return ok(list);
        const timeoutMs = Math.min(Number(params["timeout"] ?? 0), 50) * 1000;
        if (timeoutMs === 0) return ok([]);
        const result = await new Promise<unknown[]>((resolve) => {
          const waiter: Waiter = { token, offset, resolve };
          waiters.add(waiter);
          setTimeout(() => {
            if (waiters.delete(waiter)) resolve([]);
          }, timeoutMs).unref();
        });
        return ok(result);
      }
      case "sendMessage":
        return ok(recordMessage(token, params, nextMessageId++, false));
      case "editMessageText":
      case "editMessageReplyMarkup": {
        const id = Number(params["message_id"]);
        if (!sent.has(`${token}:${id}`))
          return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: message to edit not found" } };
        return ok(recordMessage(token, params, id, true));
      }
      case "deleteMessage": {
        const key = `${token}:${Number(params["message_id"])}`;
        const message = sent.get(key);
        if (!message) return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: message to delete not found" } };
        sent.delete(key);
        removed.push(message);
        return ok(true);
      }
      case "getChat":
        return ok(chat);
      case "getChatMember":
        return ok({ status: "member", user: athlete });
      default:
        // sendChatAction, setMyCommands, deleteMyCommands, deleteWebhook, setMessageReaction,
        // answerCallbackQuery ...: acknowledged, and visible in `calls`.
        return ok(true);
    }
  };

  const server: Server = createServer((request, response) => {
    void serve(request, response);
  });
  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    let answer: { status: number; body: unknown };
    if (!match) {
      answer = { status: 404, body: { ok: false, error_code: 404, description: "Not Found" } };
    } else {
      const params = { ...Object.fromEntries(url.searchParams), ...(await readParams(request)) };
      answer = await handle(decodeURIComponent(match[1] as string), match[2] as string, params);
      notify();
    }
    if (response.destroyed) return;
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(JSON.stringify(answer.body));
  };
  await once(server.listen(0, "127.0.0.1"), "listening");
  const port = (server.address() as AddressInfo).port;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    athlete,
    calls,
    messages(filter = {}) {
      return [...sent.values()].filter(
        (message) =>
          (filter.token === undefined || message.token === filter.token) &&
          (filter.chatId === undefined || message.chat_id === filter.chatId),
      );
    },
    deleted(filter = {}) {
      return removed.filter((message) => filter.token === undefined || message.token === filter.token);
    },
    send(token, text) {
      enqueue(token, { message: { message_id: nextMessageId++, from: athlete, chat, date: now(), text } });
    },
    press(token, buttonText) {
      const withButtons = [...sent.values()]
        .filter((message) => message.token === token && message.reply_markup?.inline_keyboard)
        .reverse();
      for (const message of withButtons) {
        const button = message.reply_markup?.inline_keyboard
          ?.flat()
          .find((candidate) => buttonText.test(candidate.text) && candidate.callback_data);
        if (!button?.callback_data) continue;
        enqueue(token, {
          callback_query: {
            id: String(nextUpdateId),
            from: athlete,
            chat_instance: String(athlete.id),
            data: button.callback_data,
            message: { message_id: message.message_id, from: botUser(token), chat, date: now(), text: message.text },
          },
        });
        return { messageId: message.message_id, data: button.callback_data };
      }
      throw new Error(
        `no inline button matching ${buttonText} in the bot's messages:\n${withButtons.map((message) => JSON.stringify(message.reply_markup)).join("\n")}`,
      );
    },
    waitFor(describe, predicate, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const value = predicate();
          if (value === undefined || value === false) return false;
          cleanup();
          resolve(value);
          return true;
        };
        const listener = (): void => {
          check();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${describe}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          listeners.delete(listener);
        };
        listeners.add(listener);
        check();
      });
    },
    async close() {
      for (const waiter of waiters) waiter.resolve([]);
      waiters.clear();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function readParams(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString("utf8");
  if (body === "") return {};
  const type = request.headers["content-type"] ?? "";
  if (type.includes("application/json")) return JSON.parse(body) as Record<string, unknown>;
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(body));
  // multipart (files) is not used by the conversation; keep the raw text for the record.
  return { _body: body.slice(0, 2000) };
}

function parseJsonParam(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
