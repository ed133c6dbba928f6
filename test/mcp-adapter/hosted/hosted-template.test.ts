/**
 * mcp-adapter/hosted/template.yaml passes cfn-lint, and after the SAM transform (cfn-lint's own Python
 * package, as for the voice template) it says what the code and the README rely on: the table the
 * DynamoDB store expects (partition key `pk`, the `athlete_id` index, TTL on `ttl`), Node 24 on arm64,
 * the handler the build writes, a public function URL (with lambda:InvokeFunction through the URL only),
 * the settings the function reads, least privilege on the table and the two secrets, and reserved
 * concurrency from a parameter (default 20; 0 reserves none), so a flood has a ceiling.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { athleteIndexName } from "../../../authorization/stores/state-table.ts";

const template = fileURLToPath(new URL("../../../mcp-adapter/hosted/template.yaml", import.meta.url));
type Resource = { Type: string; Properties: Record<string, unknown> };
let resources: Record<string, Resource>;
let parameters: Record<string, Record<string, unknown>>;
let conditions: Record<string, unknown>;

const transform = `
import json, sys
from cfnlint.decode import decode
from cfnlint.template.transforms._sam import Transform
template, matches = decode(sys.argv[1])
if template is None:
    sys.exit("could not read the template: %s" % matches)
t = Transform(sys.argv[1], template, "us-west-2")
t.transform_template()
print(json.dumps({"Resources": t._template["Resources"], "Parameters": t._template.get("Parameters", {}), "Conditions": t._template.get("Conditions", {})}, default=str))
`;

beforeAll(() => {
  const lint = spawnSync("cfn-lint", [template], { encoding: "utf8" });
  if (lint.error)
    throw new Error("cfn-lint is not on PATH: install it with `pip install cfn-lint` (the CI machine image ships cfn-lint 1.x).");
  if (lint.status !== 0) throw new Error(`cfn-lint found problems in the hosted template:\n${lint.stdout}${lint.stderr}`);
  const result = spawnSync("python3", ["-c", transform, template], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`The SAM transform through cfn-lint's Python package failed: ${result.stderr}`);
  const transformed = JSON.parse(result.stdout) as {
    Resources: Record<string, Resource>;
    Parameters: Record<string, Record<string, unknown>>;
    Conditions: Record<string, unknown>;
  };
  ({ Resources: resources, Parameters: parameters, Conditions: conditions } = transformed);
});

const ofType = (type: string): Resource[] => Object.values(resources).filter((resource) => resource.Type === type);

describe("the hosted template", () => {
  it("makes the table the DynamoDB store uses", () => {
    const [table] = ofType("AWS::DynamoDB::Table");
    expect(table?.Properties).toMatchObject({
      BillingMode: "PAY_PER_REQUEST",
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      GlobalSecondaryIndexes: [
        {
          IndexName: athleteIndexName,
          KeySchema: [{ AttributeName: "athlete_id", KeyType: "HASH" }],
          Projection: { ProjectionType: "KEYS_ONLY" },
        },
      ],
      TimeToLiveSpecification: { AttributeName: "ttl", Enabled: true },
    });
  });

  it("runs the built handler on Node 24 behind a public function URL, invocable only through it", () => {
    const [fn] = ofType("AWS::Lambda::Function");
    expect(fn?.Properties).toMatchObject({ Runtime: "nodejs24.x", Architectures: ["arm64"], Handler: "lambda-handler.handler" });
    const variables = (fn?.Properties["Environment"] as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(variables).sort()).toEqual([
      "FITNESS_SECRET_NAME",
      "LOG_LEVEL",
      "MCP_ATHLETES",
      "MCP_AUTH",
      "MCP_OAUTH_TABLE",
      "MCP_SIGNING_KEY_SECRET",
      "PUBLIC_URL",
      "STRAVA_WEBHOOK_SUBSCRIPTION_ID",
      "STRAVA_WEBHOOK_VERIFY_TOKEN",
    ]);
    expect(variables["MCP_AUTH"]).toBe("oauth");
    const [url] = ofType("AWS::Lambda::Url");
    expect(url?.Properties).toMatchObject({ AuthType: "NONE", InvokeMode: "BUFFERED" });
    const permissions = ofType("AWS::Lambda::Permission").map((permission) => permission.Properties);
    expect(permissions).toContainEqual(
      expect.objectContaining({ Action: "lambda:InvokeFunctionUrl", Principal: "*", FunctionUrlAuthType: "NONE" }),
    );
    expect(permissions).toContainEqual(
      expect.objectContaining({ Action: "lambda:InvokeFunction", Principal: "*", InvokedViaFunctionUrl: true }),
    );
  });

  it("grants the function only the table's item calls (and one scan) and reading the two secrets", () => {
    const policies = ofType("AWS::IAM::Role").flatMap(
      (role) => (role.Properties["Policies"] as { PolicyDocument: { Statement: { Action: string | string[] }[] } }[]) ?? [],
    );
    const actions = policies.flatMap((policy) => policy.PolicyDocument.Statement.flatMap((statement) => [statement.Action].flat()));
    expect(actions.sort()).toEqual([
      "dynamodb:DeleteItem",
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:Query",
      "dynamodb:Scan",
      "dynamodb:UpdateItem",
      "secretsmanager:GetSecretValue",
    ]);
    const [secret] = ofType("AWS::SecretsManager::Secret");
    expect(secret?.Properties).toMatchObject({ GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true } });
  });

  it("reserves concurrency from a parameter (default 20, 0 reserves none): a flood has a ceiling, and the account's other functions keep theirs", () => {
    expect(parameters["ReservedConcurrency"]).toMatchObject({ Type: "Number", Default: 20, MinValue: 0 });
    expect(String(parameters["ReservedConcurrency"]?.["Description"])).toContain("Default 20");
    const [fn] = ofType("AWS::Lambda::Function");
    expect(fn?.Properties["ReservedConcurrentExecutions"]).toEqual({
      "Fn::If": ["ReserveConcurrency", { Ref: "ReservedConcurrency" }, { Ref: "AWS::NoValue" }],
    });
    expect(conditions["ReserveConcurrency"]).toEqual({ "Fn::Not": [{ "Fn::Equals": [{ Ref: "ReservedConcurrency" }, 0] }] });
  });
});
