/**
 * What only the local files promise (authorization/stores/state-directory.ts): the directory and what it holds are
 * readable by their owner only; a directory others may enter, or inside one others may write, is refused with the
 * chmod that fixes it; a `state.json` of an earlier version is split into record files once, and its clients,
 * codes, grants and owner keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256Hex } from "../../../common/digests.ts";
import type { AuthorizationStores } from "../../../authorization/stores/authorization-stores.ts";
import { openAuthorizationStores } from "../../../authorization/stores/open-authorization-stores.ts";
import { application, signal } from "./store-backends.ts";

const now = (): number => Math.floor(Date.now() / 1000);
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "state-directory-"));
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

const onFiles = (path: string): Promise<AuthorizationStores> =>
  openAuthorizationStores({ kind: "files", directory: path }, { application, requestTimeoutMs: 5_000 });

describe("the local files", () => {
  it("are readable by their owner only", async () => {
    const stores = await onFiles(join(directory, "modes"));
    await stores.signingKey.signingKey(signal());
    await stores.athletes.claimOwner("1", signal());
    await stores
      .athleteCredentials("1")
      .writeAuthorization({ ...application, refresh_token: "rt", access_token: "at", expires_at: now() + 60 }, signal());
    expect(statSync(join(directory, "modes")).mode & 0o777).toBe(0o700);
    for (const file of ["owner", "signing-key", "athletes/1.json"])
      expect(statSync(join(directory, "modes", file)).mode & 0o777, file).toBe(0o600);
  });

  it("a directory others may enter, or inside one others may write, is refused with the chmod that fixes it", async () => {
    const loose = join(directory, "loose");
    mkdirSync(loose, { mode: 0o700 });
    chmodSync(loose, 0o777);
    await expect(onFiles(loose)).rejects.toThrow(
      `permissions 777). It holds the key that signs every access token: make it this user's alone (chmod 700 ${loose})`,
    );
    const open = join(directory, "open-parent");
    mkdirSync(open, { mode: 0o700 });
    chmodSync(open, 0o777);
    await expect(onFiles(join(open, "oauth"))).rejects.toThrow(
      `inside ${open}, which others may write to (permissions 777): they could swap it for theirs. Remove that write permission (chmod go-w ${open})`,
    );
  });

  it("a state.json of the earlier version is split into record files once: clients, codes, grants and the owner keep working", async () => {
    const legacyDirectory = join(directory, "legacy");
    mkdirSync(legacyDirectory, { mode: 0o700 });
    const grantId = crypto.randomUUID();
    const codeHash = sha256Hex("legacy code");
    const legacyClient = {
      client_id: "fc_legacyClient0000000000",
      client_id_issued_at: now(),
      redirect_uris: ["https://a.example/cb"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code"],
      response_types: ["code"],
      expires_at: now() + 86_400,
    };
    const legacyCode = {
      code_sha256: codeHash,
      client_id: legacyClient.client_id,
      redirect_uri: "https://a.example/cb",
      code_challenge: "x",
      scope: "fitness:read",
      resource: "r",
      athlete_id: "42",
      client_name: "A",
      expires_at: now() + 60,
    };
    const legacyGrant = {
      grant_id: grantId,
      athlete_id: "42",
      client_id: legacyClient.client_id,
      client_name: "A",
      scope: "fitness:read",
      resource: "http://127.0.0.1:3000/mcp",
      refresh_sha256: "r1",
      spent_sha256: [],
      created_at: now(),
      expires_at: now() + 3600,
      revision: 1,
    };
    writeFileSync(
      join(legacyDirectory, "state.json"),
      JSON.stringify({
        owner: "42",
        clients: { [legacyClient.client_id]: legacyClient },
        codes: { [codeHash]: legacyCode },
        grants: { [grantId]: legacyGrant },
      }),
      { mode: 0o600 },
    );
    const [first, second] = await Promise.all([onFiles(legacyDirectory), onFiles(legacyDirectory)]);
    const [fromFirst, fromSecond] = await Promise.all([
      first!.grants.getGrant(grantId, signal()),
      second!.grants.getGrant(grantId, signal()),
    ]);
    expect(fromFirst?.athlete_id).toBe("42");
    expect(fromSecond?.athlete_id).toBe("42");
    expect(await first!.registrations.getClient(legacyClient.client_id, signal())).toEqual(legacyClient);
    expect(await second!.grants.getCode(codeHash, signal())).toEqual(legacyCode);
    expect(await first!.athletes.owner(signal())).toBe("42");
    expect(existsSync(join(legacyDirectory, "state.json"))).toBe(false);
    expect(existsSync(join(legacyDirectory, "state.json.migrated"))).toBe(true);
  });
});
