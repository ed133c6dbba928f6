/**
 * A throwaway certificate authority and a server certificate for 127.0.0.1 and localhost, made with
 * openssl, for HTTPS servers in tests (a client metadata document host). Servers under test trust the
 * authority through NODE_EXTRA_CA_CERTS, the way an operator adds a private root, so the product's rule
 * (https only, certificates checked) stays exactly as in production.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificates {
  /** PEM file of the authority (for NODE_EXTRA_CA_CERTS). */
  caPath: string;
  key: string;
  cert: string;
  remove(): void;
}

export function makeTestCertificates(): TestCertificates {
  const directory = mkdtempSync(join(tmpdir(), "test-ca-"));
  const file = (name: string): string => join(directory, name);
  const openssl = (...args: string[]): void => {
    execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
  };
  const curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...curve,
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=openclaw-fitness test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  openssl("req", ...curve, "-keyout", file("server.key"), "-out", file("server.csr"), "-subj", "/CN=127.0.0.1");
  writeFileSync(file("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
  openssl(
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-out",
    file("server.pem"),
    "-days",
    "2",
    "-extfile",
    file("server.ext"),
  );
  return {
    caPath: file("ca.pem"),
    key: readFileSync(file("server.key"), "utf8"),
    cert: readFileSync(file("server.pem"), "utf8"),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
