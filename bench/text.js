'use strict';
/**
 * Generated documentation text for the benchmarks (content.js, search.js): technical words
 * drawn with a Zipf law, sentences, page titles, from a seeded random generator so that every
 * run writes the same text; and the percentiles they report.
 */

/** Words of technical documentation, commonest first (sampled with a Zipf law). */
const TERMS = (
  'data user configuration server api request access token project account team file ' +
  'settings page service version error key environment database permission integration ' +
  'deployment workspace client response event cache network storage policy role endpoint ' +
  'repository branch build release log metric alert query index schema table field record ' +
  'session password authentication authorization webhook payload header cookie domain ' +
  'certificate proxy gateway cluster node container image volume secret variable template ' +
  'plugin extension module package dependency library function method parameter argument ' +
  'option flag command script pipeline workflow trigger schedule job queue worker task ' +
  'retry timeout limit quota billing invoice subscription plan customer organization member ' +
  'invitation group collection space document section heading paragraph link search filter ' +
  'sort export import backup restore migration upgrade downgrade rollback snapshot replica ' +
  'shard partition latency throughput bandwidth region zone availability failover recovery ' +
  'encryption signature hash audit compliance retention privacy consent notification email ' +
  'message channel thread comment review approval merge conflict commit history revision ' +
  'draft publish preview theme layout navigation sidebar footer banner widget dashboard ' +
  'report chart analytics insight usage threshold sandbox staging production monitoring tracing ' +
  'profiling debugging troubleshooting diagnostics healthcheck probe readiness liveness ' +
  'autoscaling loadbalancer ingress egress firewall subnet vpc peering tunnel vpn ' +
  'kubernetes docker terraform helm ansible postgres redis kafka rabbitmq elasticsearch ' +
  'graphql grpc websocket oauth saml scim openid jwt hmac tls ssh ldap sso mfa otp ' +
  'serialization deserialization pagination idempotency concurrency consistency ' +
  'orchestration provisioning onboarding offboarding localization translation accessibility'
).split(' ');
const FUNCTION_WORDS = (
  'the a to of and in for is with on your you can this that by when from it as be are or an ' +
  'each if not its before after all any more only also then which'
).split(' ');
const VERBS = (
  'Configure Install Deploy Manage Monitor Understand Troubleshoot Migrate Secure Automate ' +
  'Scale Integrate Customize Debug Rotate Review Export Import Enable Disable Create Delete'
).split(' ');
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZIPF = (() => {
  const cumulative = [];
  let sum = 0;
  for (let rank = 1; rank <= TERMS.length; rank++) cumulative.push((sum += 1 / rank));
  return cumulative.map((c) => c / sum);
})();

function term(rng) {
  const x = rng();
  let lo = 0;
  let hi = ZIPF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return TERMS[lo];
}

const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const between = (rng, min, max) => min + Math.floor(rng() * (max - min + 1));

function sentence(rng) {
  const words = [];
  const length = between(rng, 8, 18);
  for (let i = 0; i < length; i++) {
    words.push(rng() < 0.4 ? FUNCTION_WORDS[Math.floor(rng() * FUNCTION_WORDS.length)] : term(rng));
  }
  return `${capitalize(words.join(' '))}.`;
}

function pageTitle(rng, depth) {
  const words = [VERBS[Math.floor(rng() * VERBS.length)], term(rng), term(rng)];
  if (depth === 0) words.push('guide');
  return words.join(' ');
}

function median(values) {
  return percentile(values, 50);
}

/** Nearest-rank percentile. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

module.exports = {
  TERMS,
  FUNCTION_WORDS,
  VERBS,
  mulberry32,
  term,
  capitalize,
  between,
  sentence,
  pageTitle,
  median,
  percentile,
};
