// check-admission: run the CEL of ValidatingAdmissionPolicies against cases.
//
//   node check-admission.mjs CEL_MODULE < input.json
//
// input.json: {"policies": [the objects of admission.yaml],
//              "cases": [{"name", "object", "namespace", "expect"}]}
// where namespace is the namespace object and expect is "allowed" or
// "denied: POLICY#N" (the Nth validation, from 1), optionally followed by
// " ~ TEXT", a part of the message.  CEL_MODULE is the path of
// @bufbuild/cel's ESM index (a CEL implementation that passes the CEL
// conformance suite).  Each policy applies as an API server would apply it
// with its binding: matchConstraints (resources, CREATE), the binding's
// namespaceSelector, then its variables in order and its validations;
// failurePolicy Fail makes an evaluation error a denial.  Only standard CEL
// is available, none of Kubernetes' extension libraries, so the policies
// must use none.  Prints TAP; exits 1 if any case differs.
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const cel = await import(pathToFileURL(process.argv[2]).href);
const input = JSON.parse(readFileSync(0, "utf8"));

// JSON as CEL sees a Kubernetes object: maps, lists, int, string, bool.
function toCel(v) {
  if (Array.isArray(v)) return v.map(toCel);
  if (v !== null && typeof v === "object")
    return new Map(Object.entries(v).map(([k, x]) => [k, toCel(x)]));
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
  return v;
}

const RESOURCES = {
  Pod: ["", "pods"], Deployment: ["apps", "deployments"], DaemonSet: ["apps", "daemonsets"],
  StatefulSet: ["apps", "statefulsets"], ReplicaSet: ["apps", "replicasets"],
  Job: ["batch", "jobs"], CronJob: ["batch", "cronjobs"],
};

function matches(policy, object) {
  const [group, resource] = RESOURCES[object.kind] || [];
  return (policy.spec.matchConstraints.resourceRules || []).some(
    (r) => r.apiGroups.includes(group) && r.resources.includes(resource) &&
      r.operations.includes("CREATE"));
}

function selects(selector, labels) {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels || {}))
    if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions || []) {
    const has = e.key in labels;
    const ok = {
      In: has && e.values.includes(labels[e.key]),
      NotIn: !has || !e.values.includes(labels[e.key]),
      Exists: has, DoesNotExist: !has,
    }[e.operator];
    if (!ok) return false;
  }
  return true;
}

function evaluate(expr, vars) {
  const r = cel.run(expr, vars);
  if (cel.isCelError(r)) throw new Error(`${r.message} in: ${expr}`);
  return r;
}

// The first denial of the policies that apply, or "allowed".
function admit(c) {
  for (const policy of input.policies.filter((p) => p.kind === "ValidatingAdmissionPolicy")) {
    const binding = input.policies.find(
      (b) => b.kind === "ValidatingAdmissionPolicyBinding" && b.spec.policyName === policy.metadata.name);
    if (!binding || !matches(policy, c.object)) continue;
    const nsLabels = (c.namespace.metadata && c.namespace.metadata.labels) || {};
    if (!selects(binding.spec.matchResources && binding.spec.matchResources.namespaceSelector, nsLabels)) continue;
    const vars = { object: toCel(c.object), namespaceObject: toCel(c.namespace) };
    try {
      const variables = new Map();
      vars.variables = variables;
      for (const v of policy.spec.variables || []) variables.set(v.name, evaluate(v.expression, vars));
      const validations = policy.spec.validations;
      for (let i = 0; i < validations.length; i++) {
        const ok = evaluate(validations[i].expression, vars);
        if (typeof ok !== "boolean") throw new Error(`validation ${i + 1} is not a bool`);
        if (!ok) {
          const msg = validations[i].messageExpression
            ? evaluate(validations[i].messageExpression, vars) : validations[i].message;
          if (typeof msg !== "string") throw new Error(`message of validation ${i + 1} is not a string`);
          return { verdict: `denied: ${policy.metadata.name}#${i + 1}`, message: msg };
        }
      }
    } catch (e) {
      return { verdict: `error: ${policy.metadata.name}`, message: e.message };
    }
  }
  return { verdict: "allowed", message: "" };
}

let n = 0;
let failed = 0;
for (const c of input.cases) {
  const [want, text] = c.expect.split(" ~ ");
  const got = admit(c);
  const ok = got.verdict === want && (!text || got.message.includes(text));
  n++;
  if (!ok) failed++;
  console.log(`${ok ? "ok" : "not ok"} ${n} - admission: ${c.name}: ${want}`);
  if (!ok) console.log(`# got ${got.verdict}: ${got.message}`);
}
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
