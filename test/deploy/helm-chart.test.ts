// The Helm chart, rendered as `helm template` renders it and checked as the cluster would take it:
// every object well formed, every reference (services, secrets, config, volumes, scale targets)
// pointing at something the chart creates, the ingress routing the product's paths as the
// launcher does, and the settings accepted by the product's own configuration loader.
import path from 'node:path';
import { CONFIG_KEYS, loadConfig } from '@gatehouse/core';
import { ROUTE_PREFIXES } from '@gatehouse/admin-api';
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { renderChart, type RenderedChart } from './helm-template.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHART = path.join(ROOT, 'deploy/helm/gatehouse');

/** What a real install needs at least (the chart refuses to render without the first two). */
const SECRETS = { encryptionKey: Buffer.alloc(32, 1).toString('base64'), databaseUrl: 'postgres://gatehouse:pw@db:5432/gatehouse', redisUrl: 'redis://redis:6379' };

const API_VERSIONS: Record<string, string> = {
  Deployment: 'apps/v1',
  Service: 'v1',
  ConfigMap: 'v1',
  Secret: 'v1',
  ServiceAccount: 'v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
  PodDisruptionBudget: 'policy/v1',
  Ingress: 'networking.k8s.io/v1',
  Job: 'batch/v1',
};
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const ENV_NAMES = new Set(CONFIG_KEYS.map((k) => k.env));

type Any = Record<string, any>;

/** Manifests are read as the cluster reads them: any shape, checked field by field. */
const ofKind = (chart: RenderedChart, kind: string): Any[] => chart.manifests.filter((m) => m.kind === kind);
const named = (chart: RenderedChart, kind: string, name: string): Any | undefined => ofKind(chart, kind).find((m) => m.metadata.name === name);
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v);
const hookWeight = (m: Any) => Number(m.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);
const hooks = (m: Any): string[] => (m.metadata.annotations?.['helm.sh/hook'] ?? '').split(',').filter(Boolean);

/** The pod templates of the chart's workloads (deployments and the migration job). */
function podSpecs(chart: RenderedChart): Array<{ owner: string; spec: Any }> {
  return [...ofKind(chart, 'Deployment'), ...ofKind(chart, 'Job')].map((m) => ({ owner: `${m.kind} ${m.metadata.name}`, spec: m.spec!.template.spec as Any }));
}

/** What the cluster would refuse or what would break at run time, whatever the values. */
function checkWellFormed(chart: RenderedChart, secretName: string): void {
  const seen = new Set<string>();
  for (const m of chart.manifests) {
    expect(API_VERSIONS[m.kind], `${m.source}: kind ${m.kind}`).to.be.a('string');
    expect(m.apiVersion, `${m.kind} ${m.metadata?.name}`).to.equal(API_VERSIONS[m.kind]);
    expect(m.metadata.name, `${m.source}: metadata.name`).to.match(DNS_LABEL);
    expect(m.metadata.name.length, m.metadata.name).to.be.at.most(63);
    const key = `${m.kind}/${m.metadata.name}`;
    expect(seen.has(key), `${key} is rendered twice`).to.equal(false);
    seen.add(key);
    for (const [label, value] of Object.entries(m.metadata.labels ?? {})) expect(value, `label ${label}`).to.be.a('string');
  }

  const configMaps = new Set(ofKind(chart, 'ConfigMap').map((m) => m.metadata.name));
  const secrets = new Set([...ofKind(chart, 'Secret').map((m) => m.metadata.name), secretName]);
  for (const { owner, spec } of podSpecs(chart)) {
    expect(spec.securityContext.runAsNonRoot, `${owner} runs as non-root`).to.equal(true);
    expect(spec.securityContext.runAsUser, owner).to.be.above(0);
    expect(spec.automountServiceAccountToken, `${owner}: the product never calls the Kubernetes API`).to.equal(false);
    const volumes = new Map<string, Any>((spec.volumes ?? []).map((v: Any) => [v.name, v]));
    for (const volume of volumes.values()) if (volume.configMap) expect(configMaps, `${owner}: volume ${volume.name}`).to.include(volume.configMap.name);
    for (const container of spec.containers as Any[]) {
      expect(container.image, owner).to.match(/^[^:\s]+:[^:\s]+$/);
      expect(container.securityContext.allowPrivilegeEscalation, owner).to.equal(false);
      expect(container.securityContext.readOnlyRootFilesystem, owner).to.equal(true);
      expect(container.securityContext.capabilities.drop, owner).to.deep.equal(['ALL']);
      for (const mount of container.volumeMounts ?? []) expect(volumes.has(mount.name), `${owner}: mount ${mount.name} has a volume`).to.equal(true);
      const mounted = (container.volumeMounts ?? []).map((m: Any) => m.mountPath);
      expect(mounted, `${owner}: a read-only root keeps /tmp and DATA_DIR writable`).to.include.members(['/tmp', '/data']);
      for (const source of container.envFrom as Any[]) {
        if (source.configMapRef) expect(configMaps, `${owner}: envFrom`).to.include(source.configMapRef.name);
        if (source.secretRef) expect(secrets, `${owner}: envFrom`).to.include(source.secretRef.name);
      }
      expect((container.envFrom as Any[]).some((s) => s.secretRef?.name === secretName), `${owner} reads ${secretName}`).to.equal(true);
    }
  }
}

/** Both services, each its own deployment with probes, service, autoscaler or replicas, and disruption budget. */
function checkServices(chart: RenderedChart): void {
  const deployments = ofKind(chart, 'Deployment');
  expect(deployments.map((d) => d.metadata.name).sort()).to.deep.equal(['release-name-gatehouse-admin-api', 'release-name-gatehouse-idp']);
  for (const deployment of deployments) {
    const component = deployment.metadata.name.replace('release-name-gatehouse-', '');
    const { spec } = deployment;
    const podLabels = spec.template.metadata.labels as Record<string, string>;
    expect(matches(spec.selector.matchLabels, podLabels), `${component}: the selector selects its own pods`).to.equal(true);
    const others = deployments.filter((d) => d !== deployment);
    expect(others.some((d) => matches(spec.selector.matchLabels, d.spec.template.metadata.labels)), `${component}: selects no other pods`).to.equal(false);
    const [container, ...more] = spec.template.spec.containers as Any[];
    expect(more).to.have.length(0);
    expect(container!.args, `${component} runs that service only`).to.deep.equal([`--only=${component}`]);
    expect(container!.ports).to.deep.include({ name: 'http', containerPort: 3000, protocol: 'TCP' });
    expect(container!.livenessProbe.httpGet).to.deep.equal({ path: '/health/live', port: 'http' });
    expect(container!.readinessProbe.httpGet).to.deep.equal({ path: '/health/ready', port: 'http' });
    expect(container!.startupProbe.httpGet).to.deep.equal({ path: '/health/live', port: 'http' });
    expect(container!.lifecycle.preStop.exec.command[0]).to.equal('sleep');
    expect(spec.template.spec.terminationGracePeriodSeconds, 'longer than the preStop pause and the drain').to.be.at.least(Number(container!.lifecycle.preStop.exec.command[1]) + 10);
    expect(spec.strategy.rollingUpdate.maxUnavailable, 'capacity never drops during a rollout').to.equal(0);

    const services = ofKind(chart, 'Service').filter((s) => matches(s.spec.selector, podLabels));
    expect(services.map((s) => s.metadata.name), `${component}: one service selects its pods`).to.deep.equal([deployment.metadata.name]);
    expect(services[0]!.spec.ports[0].targetPort).to.equal('http');

    const hpa = ofKind(chart, 'HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === deployment.metadata.name);
    if (hpa) {
      expect(hpa.spec.scaleTargetRef).to.include({ apiVersion: 'apps/v1', kind: 'Deployment' });
      expect(hpa.spec.minReplicas).to.be.at.least(1).and.at.most(hpa.spec.maxReplicas);
      expect(spec.replicas, `${component}: the autoscaler alone sets the replicas`).to.equal(undefined);
    } else {
      expect(spec.replicas, `${component}: replicas without an autoscaler`).to.be.at.least(1);
    }
    for (const hpaOther of ofKind(chart, 'HorizontalPodAutoscaler')) expect(named(chart, 'Deployment', hpaOther.spec.scaleTargetRef.name), 'scale target exists').to.not.equal(undefined);

    const pdbs = ofKind(chart, 'PodDisruptionBudget').filter((p) => matches(p.spec.selector.matchLabels, podLabels));
    expect(pdbs, `${component}: one disruption budget`).to.have.length(1);
    const fewest = hpa ? hpa.spec.minReplicas : spec.replicas;
    if (pdbs[0]!.spec.minAvailable !== undefined) {
      expect(pdbs[0]!.spec.minAvailable, `${component}: a node drain can still evict one pod`).to.be.below(fewest);
    }
  }
}

/** Where the ingress sends a request path: Prefix rules match whole path elements, the longest wins. */
function ingressBackend(ingress: Any, requestPath: string): string | undefined {
  const rules = (ingress.spec.rules[0].http.paths as Any[]).filter((p) => {
    const prefix = p.path === '/' ? '' : p.path.replace(/\/$/, '');
    return p.pathType === 'Prefix' && (requestPath === prefix || requestPath.startsWith(`${prefix}/`));
  });
  rules.sort((a, b) => b.path.length - a.path.length);
  return rules[0]?.backend.service.name;
}

/** The launcher's own routing (services/launcher/src/server.ts): the admin API's prefixes, the rest to the idp. */
const launcherSends = (p: string) => (ROUTE_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`) || p.startsWith(`${prefix}?`)) ? 'admin-api' : 'idp');

function checkIngress(chart: RenderedChart, publicUrl: string): void {
  const [ingress, ...more] = ofKind(chart, 'Ingress');
  expect(more).to.have.length(0);
  const url = new URL(publicUrl);
  const base = url.pathname.replace(/\/$/, '');
  expect(ingress!.spec.rules.map((r: Any) => r.host)).to.deep.equal([url.hostname]);
  for (const p of ingress!.spec.rules[0].http.paths as Any[]) {
    expect(p.path === `${base}` || p.path === '/' || p.path.startsWith(`${base}/`), `${p.path} is under the base path`).to.equal(true);
    const service = named(chart, 'Service', p.backend.service.name);
    expect(service, `backend ${p.backend.service.name}`).to.not.equal(undefined);
    expect(service!.spec.ports.map((port: Any) => port.name)).to.include(p.backend.service.port.name);
  }
  const samples = [
    '/', '/account/login', '/oidc/token', '/oidc/.well-known/openid-configuration', '/api/v1/config', '/api/v1/account/login', '/api/v1/profile',
    '/api/docs', '/api/v1/admin', '/api/v1/admin/users', '/api/v1/keys', '/api/v1/account/lock/42', '/api/v1/account/unlock/42', '/admin', '/admin/users/1',
    '/administrator', '/hubs/notifications/', '/health/ready',
  ];
  const prefixes = ROUTE_PREFIXES.flatMap((prefix) => [prefix, `${prefix}/x`]);
  for (const sample of [...samples, ...prefixes]) {
    const backend = ingressBackend(ingress, `${base}${sample === '/' && base ? '' : sample}`);
    expect(backend, `${base}${sample}`).to.equal(`release-name-gatehouse-${launcherSends(sample)}`);
  }
  expect(ingressBackend(ingress, '/elsewhere'), 'nothing outside the base path').to.equal(base ? undefined : 'release-name-gatehouse-idp');
}

/** The migration job runs the image's migrate command before the release's pods, with the settings it needs already there. */
function checkMigrations(chart: RenderedChart): void {
  const [job, ...more] = ofKind(chart, 'Job');
  expect(more).to.have.length(0);
  expect(hooks(job!)).to.have.members(['pre-install', 'pre-upgrade']);
  const pod = job!.spec.template.spec;
  expect(pod.restartPolicy).to.equal('Never');
  expect(pod.containers[0].args).to.deep.equal(['--migrate-only']);
  expect(pod.serviceAccountName, 'the chart’s service account does not exist yet at pre-install').to.equal(undefined);
  for (const source of pod.containers[0].envFrom as Any[]) {
    const ref = source.configMapRef ?? source.secretRef;
    const object = named(chart, source.configMapRef ? 'ConfigMap' : 'Secret', ref.name);
    if (!object) continue; // an existing Secret, made outside the chart
    expect(hooks(object), `${ref.name} exists before the job`).to.include.members(['pre-install', 'pre-upgrade']);
    expect(hookWeight(object), `${ref.name} is created before the job`).to.be.below(hookWeight(job!));
  }
  for (const volume of pod.volumes as Any[]) {
    if (!volume.configMap) continue;
    expect(hookWeight(named(chart, 'ConfigMap', volume.configMap.name)!)).to.be.below(hookWeight(job!));
  }
}

/** The settings the pods get, read by the product's configuration loader as it reads them at start. */
function environmentOf(chart: RenderedChart, extra: Record<string, string> = {}): Record<string, string> {
  const config = named(chart, 'ConfigMap', 'release-name-gatehouse-config')!;
  const secret = ofKind(chart, 'Secret')[0];
  const env = { ...(config.data as Record<string, string>), ...((secret?.stringData as Record<string, string>) ?? {}), ...extra };
  for (const name of Object.keys(env)) expect(ENV_NAMES.has(name), `${name} is a setting of the product`).to.equal(true);
  return env;
}

describe('deployment: the Helm chart', () => {
  describe('with the default values and the required secrets', () => {
    let chart: RenderedChart;
    before(() => {
      chart = renderChart(CHART, { values: { secrets: SECRETS } });
    });

    it('renders well-formed objects whose references all resolve', () => {
      const kinds = chart.manifests.map((m) => m.kind).sort();
      expect(kinds).to.deep.equal([
        'ConfigMap', 'Deployment', 'Deployment', 'HorizontalPodAutoscaler', 'HorizontalPodAutoscaler', 'Ingress', 'Job',
        'PodDisruptionBudget', 'PodDisruptionBudget', 'Secret', 'Service', 'Service', 'ServiceAccount',
      ]);
      checkWellFormed(chart, 'release-name-gatehouse-secrets');
    });

    it('runs each service as its own deployment, probed on /health/live and /health/ready, autoscaled, with a disruption budget', () => {
      checkServices(chart);
      for (const deployment of ofKind(chart, 'Deployment')) {
        expect(deployment.spec.template.spec.serviceAccountName).to.equal('release-name-gatehouse');
        expect(deployment.spec.template.spec.containers[0].image).to.equal('gatehouse:0.1.0');
      }
    });

    it('routes by path like the launcher: the administration API, console and hub to admin-api, the rest to idp', () => {
      checkIngress(chart, 'https://id.example.com');
      const bodySize = ofKind(chart, 'Ingress')[0]!.metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size'] as string;
      expect(Number(/^(\d+)m$/.exec(bodySize)?.[1]), 'uploads of 2 MB pass the ingress').to.be.at.least(3);
    });

    it('migrates in a pre-install and pre-upgrade job that finds its settings and secrets in place', () => {
      checkMigrations(chart);
    });

    it('keeps the secrets in a Secret and gives the product settings its loader accepts', () => {
      const secret = ofKind(chart, 'Secret')[0]!;
      expect(secret.stringData).to.deep.equal({ IDP_ENCRYPTION_KEY: SECRETS.encryptionKey, DATABASE_URL: SECRETS.databaseUrl, REDIS_URL: SECRETS.redisUrl });
      const configMap = named(chart, 'ConfigMap', 'release-name-gatehouse-config')!;
      expect(Object.values(configMap.data as Record<string, string>).join(' '), 'no secret in the ConfigMap').not.to.contain(SECRETS.encryptionKey);
      const config = loadConfig({ env: environmentOf(chart), configDir: path.join(ROOT, 'config') });
      expect(config.nodeEnv).to.equal('production');
      expect(config.server).to.include({ host: '0.0.0.0', port: 3000, publicUrl: 'https://id.example.com', trustProxy: true });
      expect(config.database.url).to.equal(SECRETS.databaseUrl);
      expect(config.redis.url).to.equal(SECRETS.redisUrl);
    });
  });

  describe('metrics', () => {
    const configOf = (chart: RenderedChart) => loadConfig({ env: environmentOf(chart), configDir: path.join(ROOT, 'config') });

    it('gives the ingress no /metrics without METRICS_TOKEN: production pods, one http port, no metrics port, no scrape annotation', () => {
      const chart = renderChart(CHART, { values: { secrets: SECRETS } });
      const config = configOf(chart);
      expect(config.nodeEnv, '/metrics is not served on the public port in production without a token').to.equal('production');
      expect(config.metrics.token).to.equal(undefined);
      expect(config.metrics.port).to.equal(undefined);
      for (const { owner, spec } of podSpecs(chart)) {
        for (const container of spec.containers as Any[]) {
          expect((container.ports ?? []).map((port: Any) => port.name), owner).to.satisfy((names: string[]) => names.every((name) => name === 'http'));
          expect((container.env ?? []).map((variable: Any) => variable.name), owner).to.not.include('METRICS_PORT');
        }
      }
      for (const service of ofKind(chart, 'Service')) expect(service.spec.ports.map((port: Any) => port.name), service.metadata.name).to.deep.equal(['http']);
      for (const manifest of chart.manifests as Any[]) {
        const annotations = { ...manifest.metadata.annotations, ...manifest.spec?.template?.metadata?.annotations };
        expect(Object.keys(annotations).filter((name) => name.startsWith('prometheus.io')), `${manifest.kind} ${manifest.metadata.name}`).to.deep.equal([]);
      }
    });

    it('passes secrets.metricsToken to the pods, which then serve /metrics to its bearer', () => {
      const token = 'scrape-token-0123456789abcdef';
      const chart = renderChart(CHART, { values: { secrets: { ...SECRETS, metricsToken: token } } });
      expect(ofKind(chart, 'Secret')[0]!.stringData).to.include({ METRICS_TOKEN: token });
      expect(configOf(chart).metrics.token).to.equal(token);
    });
  });

  describe('under a base path, with an existing Secret, a bootstrap file and a fixed replica count', () => {
    const bootstrap = 'areas:\n  - name: Default\n    default: true\n';
    let chart: RenderedChart;
    before(() => {
      chart = renderChart(CHART, {
        values: {
          publicUrl: 'https://example.com/identity',
          existingSecret: 'gatehouse-prod',
          bootstrap,
          image: { repository: 'registry.example.com/gatehouse', tag: '1.2.3' },
          services: { idp: { replicas: 3, autoscaling: { enabled: false } } },
          ingress: { tls: [{ secretName: 'gatehouse-tls' }] },
          env: { SIGN_IN_RATE_LIMIT: 60 },
        },
      });
    });

    it('creates no Secret and reads the existing one', () => {
      expect(ofKind(chart, 'Secret')).to.have.length(0);
      checkWellFormed(chart, 'gatehouse-prod');
      checkMigrations(chart);
    });

    it('keeps the replicas of the service without an autoscaler', () => {
      checkServices(chart);
      expect(named(chart, 'Deployment', 'release-name-gatehouse-idp')!.spec.replicas).to.equal(3);
      expect(ofKind(chart, 'HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name)).to.deep.equal(['release-name-gatehouse-admin-api']);
      expect(named(chart, 'Deployment', 'release-name-gatehouse-admin-api')!.spec.template.spec.containers[0].image).to.equal('registry.example.com/gatehouse:1.2.3');
    });

    it('routes every path under the base path, and nothing outside it', () => {
      checkIngress(chart, 'https://example.com/identity');
      const ingress = ofKind(chart, 'Ingress')[0]!;
      expect(ingress.spec.tls).to.deep.equal([{ hosts: ['example.com'], secretName: 'gatehouse-tls' }]);
    });

    it('mounts the bootstrap file where IDP_BOOTSTRAP points, in every workload', () => {
      const env = environmentOf(chart, { IDP_ENCRYPTION_KEY: SECRETS.encryptionKey, DATABASE_URL: SECRETS.databaseUrl });
      const file = env.IDP_BOOTSTRAP!;
      expect(parseYaml(named(chart, 'ConfigMap', 'release-name-gatehouse-bootstrap')!.data[path.basename(file)])).to.deep.equal(parseYaml(bootstrap));
      for (const { owner, spec } of podSpecs(chart)) {
        const mount = (spec.containers[0].volumeMounts as Any[]).find((m) => m.mountPath === path.dirname(file));
        expect(mount, owner).to.include({ name: 'bootstrap', readOnly: true });
      }
      const config = loadConfig({ env, configDir: path.join(ROOT, 'config') });
      expect(config.server.publicUrl).to.equal('https://example.com/identity');
      expect(config.oidc.issuer).to.equal('https://example.com/identity/oidc');
      expect(config.security.signInRequestsPerMinute).to.equal(60);
    });
  });

  it('refuses to render without an encryption key or a database when it creates the Secret', () => {
    expect(() => renderChart(CHART, { values: { secrets: { ...SECRETS, encryptionKey: '' } } })).to.throw(/secrets\.encryptionKey is required/);
    expect(() => renderChart(CHART, { values: { secrets: { ...SECRETS, databaseUrl: '' } } })).to.throw(/secrets\.databaseUrl is required/);
  });

  it('refuses values its schema does not describe, naming the value, before rendering anything', () => {
    const refusal = (values: Any) => {
      try {
        renderChart(CHART, { values: { secrets: SECRETS, ...values } });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`values accepted: ${JSON.stringify(values)}`);
    };
    // A misspelt key, a number given as text, a value outside its list, an address that is not one.
    expect(refusal({ ingres: { enabled: false } })).to.match(/^values don't meet the specifications/).and.to.include('ingres is not a setting of the chart');
    expect(refusal({ services: { idp: { replicas: 'two' } } })).to.include('services.idp.replicas: must be integer');
    expect(refusal({ services: { idp: { autoscaling: { enabeld: false } } } })).to.include('services.idp.autoscaling: enabeld is not a setting of the chart');
    expect(refusal({ image: { pullPolicy: 'Sometimes' } })).to.include('image.pullPolicy: must be equal to one of the allowed values');
    expect(refusal({ publicUrl: 'id.example.com' })).to.include('publicUrl: must match pattern');
    expect(refusal({ secrets: { ...SECRETS, databaseUrl: 'mysql://db/gatehouse' } })).to.include('secrets.databaseUrl: must match pattern');
    expect(refusal({ env: { log_level: 'debug' } })).to.include('env: property name must be valid');
    expect(refusal({ services: { idp: { resources: { limits: { memory: 'lots' } } } } })).to.include('services.idp.resources.limits.memory: must match pattern');
    // Everything the values file documents, and the settings a real install changes, pass.
    expect(() =>
      renderChart(CHART, {
        values: {
          secrets: SECRETS,
          image: { repository: 'registry.example.com/gatehouse', tag: '1.2.3', pullPolicy: 'Always' },
          env: { LOG_LEVEL: 'debug', SIGN_IN_REQUESTS_PER_MINUTE: 60 },
          services: { idp: { replicas: 3, podDisruptionBudget: { maxUnavailable: 1 } } },
          ingress: { tls: [{ secretName: 'gatehouse-tls' }] },
          nodeSelector: { 'kubernetes.io/os': 'linux' },
        },
      }),
    ).not.to.throw();
  });

  it('changes the pods’ checksum when a setting or a secret changes, so that they roll', () => {
    const annotations = (values: Any) => named(renderChart(CHART, { values }), 'Deployment', 'release-name-gatehouse-idp')!.spec.template.metadata.annotations;
    const before = annotations({ secrets: SECRETS });
    expect(annotations({ secrets: SECRETS })).to.deep.equal(before);
    expect(annotations({ secrets: SECRETS, env: { LOG_LEVEL: 'debug' } })['checksum/config']).not.to.equal(before['checksum/config']);
    expect(annotations({ secrets: { ...SECRETS, redisUrl: 'redis://other:6379' } })['checksum/secrets']).not.to.equal(before['checksum/secrets']);
  });
});
