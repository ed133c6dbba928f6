/**
 * The two backends of OAuth mode's stores, for the contract tests of each concern (one file per concern, each
 * run the same way on both): local files in a scratch directory, and DynamoDB with the signing key in Secrets
 * Manager on moto_server (the table and secret made as the hosted template makes them). `storeBackends()`
 * registers the hooks that start and stop what the backends need; a test opens stores on state it shares with
 * the file's other tests (`open`, any number of them: separate instances of the same state) or on state of
 * its own (`fresh`, for tests that count what is stored).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { AuthorizationStores } from "../../../authorization/stores/authorization-stores.ts";
import { openAuthorizationStores } from "../../../authorization/stores/open-authorization-stores.ts";
import { startMotoServer, type MotoServer } from "../../support/moto-server.ts";
import { createOAuthResources } from "../../support/oauth-aws.ts";

export const application = { client_id: "73519", client_secret: "s".repeat(40) };
export const signal = (): AbortSignal => AbortSignal.timeout(5_000);

export interface Backend {
  /** Stores on the state every test of this file shares on this backend (a new instance each call). */
  open: (now?: () => number) => Promise<AuthorizationStores>;
  /** Stores on state of their own (a new directory, or a new table and key), and where that state is. */
  fresh: () => Promise<{ stores: AuthorizationStores; place: string }>;
}

/** The two backends by name, for `describe.each`; the hooks that prepare them are registered in the calling file. */
export function storeBackends(file: string): [string, Backend][] {
  let moto: MotoServer | undefined;
  let directory = "";
  let freshOnes = 0;
  const savedEnv = { ...process.env };
  const shared = { table: `${file}-shared`, secret: `${file}-shared-key` };

  beforeAll(async () => {
    moto = await startMotoServer();
    Object.assign(process.env, moto.env);
    await createOAuthResources(shared);
    directory = mkdtempSync(join(tmpdir(), `${file}-`));
  }, 60_000);

  afterAll(async () => {
    process.env = savedEnv;
    await moto?.stop();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const onFiles = (path: string, now?: () => number) =>
    openAuthorizationStores({ kind: "files", directory: path }, { application, requestTimeoutMs: 5_000, now });
  const onDynamoDb = (names: { table: string; secret: string }, now?: () => number) =>
    openAuthorizationStores(
      { kind: "dynamodb", table: names.table, signingKeySecret: names.secret, region: "us-west-2" },
      { application, requestTimeoutMs: 5_000, now },
    );
  return [
    [
      "local files",
      {
        open: (now) => onFiles(join(directory, "state"), now),
        fresh: async () => {
          const path = join(directory, `fresh-${++freshOnes}`);
          return { stores: await onFiles(path), place: path };
        },
      },
    ],
    [
      "DynamoDB + Secrets Manager",
      {
        open: (now) => onDynamoDb(shared, now),
        fresh: async () => {
          const names = { table: `${file}-${++freshOnes}`, secret: `${file}-key-${freshOnes}` };
          await createOAuthResources(names);
          return { stores: await onDynamoDb(names), place: names.table };
        },
      },
    ],
  ];
}
