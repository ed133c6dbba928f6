/**
 * Reads a secret an operator gives a command: from a prompt whose typing is not shown (standard input a
 * terminal), or from standard input to its end (a pipe or a file). Never echoed, never logged; only its first
 * line counts, without the spaces around it.
 */
import type { Readable, Writable } from "node:stream";

/** A terminal's standard input, as far as reading a hidden line needs it. */
export interface SecretInput extends Readable {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** Longest input read from a pipe: a key is short; anything much longer is not one. */
const pipeLimit = 64 * 1024;

export async function readSecretLine(prompt: string, input: SecretInput, promptTo: Writable): Promise<string> {
  const text = input.isTTY && input.setRawMode ? await hiddenLine(prompt, input, promptTo) : await toEnd(input);
  return (text.split(/\r?\n/)[0] ?? "").trim();
}

/** What is typed up to Enter, shown as nothing; Ctrl-C or Ctrl-D stop it with an empty answer. */
function hiddenLine(prompt: string, input: SecretInput, promptTo: Writable): Promise<string> {
  promptTo.write(prompt);
  input.setRawMode?.(true);
  input.resume();
  return new Promise((resolve) => {
    let typed = "";
    const finish = (value: string): void => {
      input.off("data", onData);
      input.setRawMode?.(false);
      input.pause();
      promptTo.write("\n");
      resolve(value);
    };
    const onData = (chunk: Buffer | string): void => {
      for (const character of chunk.toString("utf8")) {
        if (character === "\r" || character === "\n") return finish(typed);
        if (character === "\u0003" || character === "\u0004") return finish("");
        if (character === "\u007f" || character === "\b") typed = typed.slice(0, -1);
        else if (character >= " ") typed += character;
      }
    };
    input.on("data", onData);
  });
}

async function toEnd(input: Readable): Promise<string> {
  let text = "";
  for await (const chunk of input) {
    text += Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk);
    if (text.length > pipeLimit) break;
  }
  return text;
}
