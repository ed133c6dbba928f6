// voice/template.yaml: it must pass cfn-lint, and after the SAM transform (done by cfn-lint's own Python
// package, as cfn-lint does before linting) it must say what the README promises: authorizer without result
// caching, stage throttle 10/s burst 20, the THROTTLED body, Node 22, 30 s / 256 MB defaults, least privilege.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const TEMPLATE = fileURLToPath(new URL("../../voice/template.yaml", import.meta.url));

type Resource = { Type: string; Properties: Record<string, unknown> };
let resources: Record<string, Resource>;
let parameters: Record<string, { Default?: unknown }>;

function requireCfnLint(): void {
  const probe = spawnSync("cfn-lint", ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      "cfn-lint is not on PATH, so voice/template.yaml cannot be checked. Install it with `pip install cfn-lint` " +
        "(the CI machine image ships cfn-lint 1.x).",
    );
  }
}

const TRANSFORM = `
import json, sys
from cfnlint.decode import decode
from cfnlint.template.transforms._sam import Transform
template, matches = decode(sys.argv[1])
if template is None:
    sys.exit("could not read the template: %s" % matches)
transform = Transform(sys.argv[1], template, "us-west-2")
transform.transform_template()
print(json.dumps({"Resources": transform._template["Resources"], "Parameters": template.get("Parameters", {})}, default=str))
`;

beforeAll(() => {
  requireCfnLint();
  const result = spawnSync("python3", ["-c", TRANSFORM, TEMPLATE], { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(
      `The SAM transform through cfn-lint's Python package failed (python3 must be the Python cfn-lint runs on): ${result.stderr}`,
    );
  }
  const parsed = JSON.parse(result.stdout) as { Resources: Record<string, Resource>; Parameters: typeof parameters };
  resources = parsed.Resources;
  parameters = parsed.Parameters;
});

function ofType(type: string): Resource[] {
  return Object.values(resources).filter((resource) => resource.Type === type);
}

function resource(name: string): Resource {
  const found = resources[name];
  if (!found) throw new Error(`resource ${name} missing from the transformed template`);
  return found;
}

describe("voice/template.yaml", () => {
  it("passes cfn-lint with no findings", () => {
    const result = spawnSync("cfn-lint", [TEMPLATE], { encoding: "utf8" });
    expect({ status: result.status, findings: result.stdout.trim() }).toEqual({ status: 0, findings: "" });
  });

  it("has a REST API with a stage and a REQUEST authorizer without result caching or identity source", () => {
    const api = ofType("AWS::ApiGateway::RestApi")[0];
    const body = api?.Properties.Body as {
      securityDefinitions: Record<string, { "x-amazon-apigateway-authorizer": Record<string, unknown> }>;
      "x-amazon-apigateway-gateway-responses": Record<string, unknown>;
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const authorizer = body.securityDefinitions.ClientTokenAuthorizer?.["x-amazon-apigateway-authorizer"];
    expect(authorizer).toMatchObject({ type: "request", authorizerResultTtlInSeconds: 0 });
    expect(authorizer).not.toHaveProperty("identitySource");
    expect(body.paths["/invoke"]?.post?.security).toEqual([{ ClientTokenAuthorizer: [] }]);
    expect(ofType("AWS::ApiGateway::Stage")).toHaveLength(1);
  });

  it("throttles the stage at 10 requests per second, burst 20, answering 429 Rate Exceeded.", () => {
    const stage = ofType("AWS::ApiGateway::Stage")[0];
    expect(stage?.Properties.MethodSettings).toEqual([
      { ResourcePath: "/*", HttpMethod: "*", ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
    ]);
    const api = ofType("AWS::ApiGateway::RestApi")[0];
    const responses = (api?.Properties.Body as Record<string, Record<string, unknown>>)["x-amazon-apigateway-gateway-responses"];
    expect(responses?.THROTTLED).toMatchObject({
      statusCode: "429",
      responseTemplates: { "application/json": '{"message":"Rate Exceeded."}' },
    });
  });

  it("runs both functions on Node 22 with timeout and memory from parameters defaulting to 30 s and 256 MB", () => {
    const functions = ofType("AWS::Lambda::Function");
    expect(functions).toHaveLength(2);
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: "nodejs24.x",
        Timeout: { Ref: "FunctionTimeout" },
        MemorySize: { Ref: "FunctionMemory" },
      });
    }
    expect(parameters.FunctionTimeout?.Default).toBe(30);
    expect(parameters.FunctionMemory?.Default).toBe(256);
    expect(resource("HandlerFunction").Properties.Handler).toBe("handler.handler");
    expect(resource("AuthorizerFunction").Properties.Handler).toBe("authorizer.handler");
  });

  it("lets the authorizer read only the one parameter, and decrypt only with a named key via SSM", () => {
    const policies = resource("AuthorizerFunctionRole").Properties.Policies as Array<{ PolicyDocument: { Statement: unknown[] } }>;
    expect(policies).toHaveLength(1);
    expect(policies[0]?.PolicyDocument.Statement).toEqual([
      {
        Effect: "Allow",
        Action: "ssm:GetParameter",
        Resource: { "Fn::Sub": "arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter${ClientTokenParameterName}" },
      },
      {
        "Fn::If": [
          "HasCustomTokenKey",
          {
            Effect: "Allow",
            Action: "kms:Decrypt",
            Resource: { Ref: "ClientTokenKmsKeyArn" },
            Condition: { StringEquals: { "kms:ViaService": { "Fn::Sub": "ssm.${AWS::Region}.amazonaws.com" } } },
          },
          { Ref: "AWS::NoValue" },
        ],
      },
    ]);
  });

  it("lets the handler invoke only the configured model", () => {
    const policies = resource("HandlerFunctionRole").Properties.Policies as Array<{ PolicyDocument: { Statement: unknown[] } }>;
    expect(policies).toHaveLength(1);
    expect(policies[0]?.PolicyDocument.Statement).toEqual([
      {
        Effect: "Allow",
        Action: "bedrock:InvokeModel",
        Resource: [
          { "Fn::Sub": "arn:${AWS::Partition}:bedrock:*::foundation-model/${FoundationModelId}" },
          { "Fn::Sub": "arn:${AWS::Partition}:bedrock:${AWS::Region}:${AWS::AccountId}:inference-profile/${ModelId}" },
        ],
      },
    ]);
    for (const role of ofType("AWS::IAM::Role")) {
      expect(role.Properties.ManagedPolicyArns).toEqual(["arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"]);
    }
  });
});
