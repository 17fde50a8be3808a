// `npm run bench` (after the users bench): a user's effective roles over a hierarchy of 10,000
// tenants and 100,000 memberships, on a throwaway database (PostgreSQL when DATABASE_URL is set,
// else the embedded PGlite). Target: p95 under 20 ms for each way the product asks (the roles in one
// tenant, the roles in every tenant, the role names a token carries). The worst case — a user whose
// inheritable membership sits at the root of the largest subtree — and a subtree move are reported
// beside them. Loopback only; every phase is bounded in time or in work, and the process exits when done.
import { performance } from 'node:perf_hooks';
import { GLOBAL_TENANT_ID, resolveEffectiveRoles, resolveRoleNames } from '@gatehouse/core';
import { createTestContext, disposeTestContexts } from '@gatehouse/core/testing';
import { bounded, writeSection } from './figures.js';

const TENANTS = Number(process.env.BENCH_TENANTS ?? 10_000);
const MEMBERSHIPS = Number(process.env.BENCH_MEMBERSHIPS ?? 100_000);
const USERS = Math.ceil(MEMBERSHIPS / 5);
const GROUPS = 500;
/** Resolutions per figure, and the most time one figure may take. */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 2000);
const FIGURE_LIMIT_MS = 60_000;
const TARGET_P95_MS = 20;
/** The worst case (an inheritable membership over the largest subtree) may take longer, up to this. */
const WORST_TARGET_P95_MS = 30;

type Query = (sql: string, values?: unknown[]) => Promise<any[]>;

/**
 * The tree: 20 roots, then each tenant under an earlier one picked pseudo-randomly (a random
 * recursive tree: depth about ln n on average, some subtrees of hundreds). Users hold 5
 * memberships each on average, a fifth of them inheritable; 500 groups of 20 users hold the rest.
 */
async function seed(query: Query): Promise<void> {
  await query(`INSERT INTO areas (name) VALUES ('Bench') ON CONFLICT DO NOTHING`);
  await query(`INSERT INTO applications (id, name, display_name, private_url) VALUES ('bench', 'bench', 'Bench', 'http://127.0.0.1/')`);
  await query(`INSERT INTO roles (application_id, name) SELECT 'bench', 'Role ' || i FROM generate_series(1, 12) AS i`);
  await query(`CREATE TEMP TABLE bench_tenants AS SELECT i, gen_random_uuid() AS id FROM generate_series(1, $1::int) AS i`, [TENANTS]);
  await query(
    `INSERT INTO tenants (id, title, area_id, parent_id)
     SELECT b.id, 'Tenant ' || b.i, (SELECT id FROM areas WHERE name = 'Bench'), p.id
       FROM bench_tenants b
       LEFT JOIN bench_tenants p ON p.i = CASE WHEN b.i > 20 THEN 1 + ((b.i::bigint * 7919 + 104729) % (b.i - 1)) END
      ORDER BY b.i`,
  );
  await query(
    `INSERT INTO users (user_name, normalized_user_name, email, normalized_email, area_id, language)
     SELECT 'bench' || i || '@example.com', 'bench' || i || '@example.com', 'bench' || i || '@example.com', 'bench' || i || '@example.com',
            (SELECT id FROM areas WHERE name = 'Bench'), 'en'
       FROM generate_series(1, $1::int) AS i`,
    [USERS],
  );
  await query(`CREATE TEMP TABLE bench_users AS SELECT row_number() OVER (ORDER BY user_name) AS i, id FROM users WHERE user_name LIKE 'bench%'`);
  await query(
    `INSERT INTO groups (name, area_id) SELECT 'Bench group ' || i, (SELECT id FROM areas WHERE name = 'Bench') FROM generate_series(1, $1::int) AS i`,
    [GROUPS],
  );
  await query(`CREATE TEMP TABLE bench_groups AS SELECT row_number() OVER (ORDER BY name) AS i, id FROM groups WHERE name LIKE 'Bench group %'`);
  await query(
    `INSERT INTO group_members (group_id, user_id, permission)
     SELECT g.id, u.id, 'Reader' FROM bench_groups g JOIN bench_users u ON u.i % $1 = g.i % $1 AND u.i <= $1 * 20`,
    [GROUPS],
  );
  const groupMemberships = GROUPS * 10;
  const userMemberships = MEMBERSHIPS - groupMemberships;
  await query(
    `INSERT INTO tenant_members (tenant_id, identity_type, user_id, is_inheritable)
     SELECT t.id, 'User', u.id, k % 5 = 0
       FROM generate_series(0, $1::int - 1) AS k
       JOIN bench_users u ON u.i = 1 + k % $2
       JOIN bench_tenants t ON t.i = 1 + (k::bigint * 7919 + (k / $2) * 104729) % $3
     ON CONFLICT DO NOTHING`,
    [userMemberships, USERS, TENANTS],
  );
  await query(
    `INSERT INTO tenant_members (tenant_id, identity_type, group_id, is_inheritable)
     SELECT t.id, 'Group', g.id, k % 3 = 0
       FROM generate_series(0, $1::int - 1) AS k
       JOIN bench_groups g ON g.i = 1 + k % $2
       JOIN bench_tenants t ON t.i = 1 + (k::bigint * 15485863 + 7) % $3
     ON CONFLICT DO NOTHING`,
    [groupMemberships, GROUPS, TENANTS],
  );
  await query(
    `INSERT INTO tenant_member_roles (tenant_member_id, role_id)
     SELECT m.id, r.id FROM tenant_members m
       JOIN LATERAL (SELECT id FROM roles WHERE application_id = 'bench' ORDER BY name
                      OFFSET (abs(hashtext(m.id::text)) % 11) LIMIT 1 + abs(hashtext(m.id::text)) % 2) r ON true
      WHERE m.tenant_id <> $1`,
    [GLOBAL_TENANT_ID],
  );
  for (const table of ['tenants', 'users', 'groups', 'group_members', 'tenant_members', 'tenant_member_roles', 'roles']) await query(`ANALYZE ${table}`);
}

interface Figures {
  p50: number;
  p95: number;
  p99: number;
  count: number;
  rows: number;
}

/** Runs `task` on the samples one after another (one connection's latency), bounded in time. */
async function measure<T>(samples: T[], task: (sample: T) => Promise<unknown[]>): Promise<Figures> {
  const latencies: number[] = [];
  let rows = 0;
  const until = performance.now() + FIGURE_LIMIT_MS;
  for (const sample of samples) {
    if (performance.now() > until) break;
    const t0 = performance.now();
    rows += (await task(sample)).length;
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { p50: at(50), p95: at(95), p99: at(99), count: latencies.length, rows };
}

async function main(): Promise<void> {
  const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite (in this process)';
  console.log(`Roles benchmark: ${TENANTS} tenants, ${MEMBERSHIPS} memberships, ${SAMPLES} resolutions per figure, database: ${database}`);
  // Seeding a million memberships (BENCH_MEMBERSHIPS) is one statement of a minute or more: past the product's 30 s bound.
  const context = await createTestContext({ overrides: { 'log.level': 'silent', 'database.statementTimeoutMs': 600_000 } });
  const db = context.dataSource;
  const query: Query = (sql, values) => db.query(sql, values);
  try {
    const t0 = performance.now();
    await seed(query);
    const [counts] = await query(
      `SELECT (SELECT count(*) FROM tenants)::int AS tenants, (SELECT count(*) FROM tenant_members)::int AS memberships,
              (SELECT count(*) FROM tenant_member_roles)::int AS grants`,
    );
    const [shape] = await query(
      `WITH RECURSIVE depth(id, d) AS (SELECT id, 0 FROM tenants WHERE parent_id IS NULL UNION ALL SELECT t.id, d.d + 1 FROM depth d JOIN tenants t ON t.parent_id = d.id)
       SELECT max(d)::int AS max_depth, round(avg(d), 1)::float AS mean_depth FROM depth`,
    );
    console.log(
      `seeded ${counts.tenants} tenants (depth mean ${shape.mean_depth}, max ${shape.max_depth}), ${counts.memberships} memberships, ${counts.grants} role grants in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    // Samples: users spread over the whole population, each with one tenant where they hold a role and one below it.
    const samples: Array<{ userId: string; tenantId: string }> = await query(
      `SELECT DISTINCT ON (u.id) u.id AS "userId", coalesce(child.id, m.tenant_id) AS "tenantId"
         FROM bench_users u
         JOIN tenant_members m ON m.user_id = u.id
         LEFT JOIN LATERAL (SELECT id FROM tenants WHERE parent_id = m.tenant_id LIMIT 1) child ON m.is_inheritable
        WHERE u.i % greatest(1, $1::int / $2::int) = 0
        ORDER BY u.id, m.is_inheritable DESC`,
      [USERS, SAMPLES],
    );
    const users = samples.slice(0, SAMPLES);

    // Warm the caches the way a running service has them.
    await measure(users.slice(0, 100), (s) => resolveEffectiveRoles(db, s.userId, { applicationId: 'bench' }));

    const inTenant = await measure(users, (s) => resolveEffectiveRoles(db, s.userId, { tenantId: s.tenantId, applicationId: 'bench' }));
    const everywhere = await measure(users, (s) => resolveEffectiveRoles(db, s.userId, { applicationId: 'bench' }));
    const names = await measure(users, (s) => resolveRoleNames(db, s.userId, 'bench'));

    // The worst case: an inheritable membership at the root of the largest subtree.
    const [largest] = await query(
      `WITH RECURSIVE sub(root, id) AS (SELECT id, id FROM tenants WHERE parent_id IS NULL UNION ALL SELECT s.root, t.id FROM sub s JOIN tenants t ON t.parent_id = s.id)
       SELECT root AS id, count(*)::int AS size FROM sub GROUP BY root ORDER BY count(*) DESC LIMIT 1`,
    );
    // A user of their own, holding this one membership: what the subtree inherits comes from it alone.
    const [heavy] = await query(
      `INSERT INTO users (user_name, normalized_user_name, email, normalized_email, area_id, language)
       SELECT 'heavy@example.com', 'heavy@example.com', 'heavy@example.com', 'heavy@example.com', id, 'en' FROM areas WHERE name = 'Bench' RETURNING id`,
    );
    await query(`INSERT INTO tenant_members (tenant_id, identity_type, user_id, is_inheritable) VALUES ($1, 'User', $2, true) ON CONFLICT (tenant_id, user_id) DO UPDATE SET is_inheritable = true`, [
      largest.id,
      heavy.id,
    ]);
    await query(
      `INSERT INTO tenant_member_roles (tenant_member_id, role_id)
       SELECT m.id, r.id FROM tenant_members m, roles r WHERE m.tenant_id = $1 AND m.user_id = $2 AND r.application_id = 'bench' AND r.name IN ('Role 1', 'Role 2')
       ON CONFLICT DO NOTHING`,
      [largest.id, heavy.id],
    );
    const worst = await measure(Array.from({ length: 50 }, () => heavy.id as string), (userId) => resolveEffectiveRoles(db, userId, { applicationId: 'bench' }));

    // A subtree move: a tenant with descendants goes under another root; the inherited roles follow at once.
    const [moving] = await query(
      `SELECT t.id, (SELECT count(*) FROM tenants c WHERE c.parent_id = t.id)::int AS children FROM tenants t
        WHERE t.parent_id IS NOT NULL AND t.parent_id <> $1 ORDER BY (SELECT count(*) FROM tenants c WHERE c.parent_id = t.id) DESC LIMIT 1`,
      [largest.id],
    );
    // A new root where nobody holds anything: whatever the subtree inherits after the move comes from nowhere.
    const [otherRoot] = await query(`INSERT INTO tenants (title, area_id) SELECT 'Empty root', id FROM areas WHERE name = 'Bench' RETURNING id`);
    const [leaf] = await query(`SELECT id FROM tenants WHERE parent_id = $1 LIMIT 1`, [moving.id]);
    const movedAt = performance.now();
    await query(`UPDATE tenants SET parent_id = $1 WHERE id = $2`, [largest.id, moving.id]);
    const moveMs = performance.now() - movedAt;
    const after = await resolveEffectiveRoles(db, heavy.id, { tenantId: leaf.id, applicationId: 'bench' });
    if (!after.some((role) => role.roleName === 'Role 1' && role.hierarchyType !== 'Own')) {
      throw new Error('after the move, the inherited role did not reach the moved subtree');
    }
    await query(`UPDATE tenants SET parent_id = $1 WHERE id = $2`, [otherRoot.id, moving.id]);
    const away = await resolveEffectiveRoles(db, heavy.id, { tenantId: leaf.id, applicationId: 'bench' });
    if (away.some((role) => role.roleName === 'Role 1' && role.hierarchyType === 'ByHierarchy')) {
      throw new Error(`after moving away, the subtree kept a role inherited from its former root: ${JSON.stringify(away)}`);
    }

    const ms = (value: number) => `${value.toFixed(2)} ms`;
    const verdict = (f: Figures) => (f.p95 < TARGET_P95_MS ? 'met' : 'MISSED');
    const rows: Array<[string, string]> = [
      [`roles in one tenant (ancestors walked), ${inTenant.count} users: p50 / p95 / p99`, `${ms(inTenant.p50)} / ${ms(inTenant.p95)} / ${ms(inTenant.p99)}  (${verdict(inTenant)})`],
      [`roles in every tenant (subtrees walked), ${everywhere.count} users: p50 / p95 / p99`, `${ms(everywhere.p50)} / ${ms(everywhere.p95)} / ${ms(everywhere.p99)}  (${verdict(everywhere)})`],
      ['  rows answered per user (mean)', (everywhere.rows / Math.max(1, everywhere.count)).toFixed(1)],
      [`role names for a token, ${names.count} users: p50 / p95 / p99`, `${ms(names.p50)} / ${ms(names.p95)} / ${ms(names.p99)}  (${verdict(names)})`],
      [`worst case: inheritable at the root of ${largest.size} tenants: p50 / p95`, `${ms(worst.p50)} / ${ms(worst.p95)}  (${worst.rows / Math.max(1, worst.count)} rows)`],
      [`moving a subtree (${moving.children} children) under another parent`, ms(moveMs)],
    ];
    console.log(`\n${'figure'.padEnd(78)} value (target p95 < ${TARGET_P95_MS} ms)`);
    for (const [label, value] of rows) console.log(`${label.padEnd(78)} ${value}`);
    const summary = (f: Figures) => ({ p50: f.p50, p95: f.p95, p99: f.p99, count: f.count, rows: f.rows });
    writeSection('roles', {
      title: "A user's effective roles over a tenant hierarchy",
      settings: { tenants: TENANTS, memberships: MEMBERSHIPS, samples: SAMPLES, database },
      figures: [
        bounded('roles.in_tenant.p95', `roles in one tenant, ${TENANTS} tenants, ${inTenant.count} users: p95`, 'ms', inTenant.p95, { max: TARGET_P95_MS }),
        bounded('roles.everywhere.p95', `roles in every tenant, ${TENANTS} tenants, ${everywhere.count} users: p95`, 'ms', everywhere.p95, { max: TARGET_P95_MS }),
        bounded('roles.names.p95', `role names for a token, ${TENANTS} tenants, ${names.count} users: p95`, 'ms', names.p95, { max: TARGET_P95_MS }),
        bounded('roles.worst.p95', `worst case, inheritable at the root of ${largest.size} of ${TENANTS} tenants: p95`, 'ms', worst.p95, { max: WORST_TARGET_P95_MS }),
        bounded('roles.move_ms', `moving a subtree (${moving.children} children)`, 'ms', moveMs),
      ],
      details: { inTenant: summary(inTenant), everywhere: summary(everywhere), names: summary(names), worst: summary(worst) },
    });
  } finally {
    await disposeTestContexts();
  }
}

const watchdog = setTimeout(() => {
  console.error('roles benchmark: gave up after 10 minutes');
  process.exit(1);
}, 10 * 60_000);
watchdog.unref();

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
