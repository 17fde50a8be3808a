import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, findUserToken, sha256, type User } from '@gatehouse/core';
import { Mailer } from '@gatehouse/core/mail';
import { buildGroup, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import type request from 'supertest';
import { USER_SORT_FIELDS, type UserSortField } from '@gatehouse/contracts';
import { EXACT_COUNT_LIMIT, USER_SORT, listUsers, pageByPlan, pageByWalk, pageOfFewMatches, sortOf, userListSql } from './repository.js';
import { buildUsersWorld, call, insertProviderSessions, listen, logsAbout, providerSessionCount, userIn, usersChangedInOrder, type UsersWorld } from './testing.js';

const tag = () => `t${randomBytes(4).toString('hex')}`;
const STRONG = 'Correct-Horse-9-Battery';
const LIST_ITEM_KEYS = ['id', 'userName', 'email', 'firstName', 'lastName', 'areaId', 'areaName', 'validateScopes', 'locked', 'draft', 'modifiedOn', 'language'];

describe('users administration API', () => {
  let w: UsersWorld;

  before(async () => {
    w = await buildUsersWorld();
  });

  const db = () => w.context.dataSource;
  const userRow = async (id: string) => (await db().query(`SELECT * FROM users WHERE id = $1`, [id]))[0];
  const newUserBody = (overrides: Record<string, unknown> = {}) => {
    const name = tag();
    return { userName: `${name}@Example.com`, email: `${name}@example.com`, firstName: 'Ada', lastName: 'Lovelace', areaId: w.areaA.id, language: 'en', ...overrides };
  };

  describe('GET /api/v1/admin/users', () => {
    let t: string;
    let users: User[];

    before(async () => {
      t = tag();
      users = await usersChangedInOrder(w, t, [
        { area: w.areaA, firstName: 'Zoé', lastName: 'Martin' },
        { area: w.areaB, firstName: 'Bob', lastName: 'Dupont' },
        { area: w.areaA, firstName: 'Alice', lastName: '50% Off' },
      ]);
    });

    const names = (res: request.Response) => res.body.items.map((u: { userName: string }) => u.userName);

    it('answers { items, count } with the list fields, newest change first by default', async () => {
      const res = await call(w, 'get', `/users?$search=${t}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(3);
      expect(names(res)).to.deep.equal([users[2]!.userName, users[1]!.userName, users[0]!.userName]);
      expect(res.body.items[0]).to.have.keys(LIST_ITEM_KEYS);
      expect(res.body.items[1]).to.include({ id: users[1]!.id, areaId: w.areaB.id, areaName: w.areaB.name, firstName: 'Bob', lastName: 'Dupont', locked: false, draft: false });
    });

    it('counts the matches exactly up to the limit, and beyond it answers the estimate flagged as such', async () => {
      const many = tag();
      await db().query(
        `INSERT INTO users (user_name, normalized_user_name, email, normalized_email, area_id)
         SELECT n, n, n, n, $2 FROM (SELECT $1 || '-' || i || '@bulk.example' AS n FROM generate_series(1, $3::int) i) s`,
        [many, w.areaA.id, EXACT_COUNT_LIMIT + 50],
      );
      const res = await call(w, 'get', `/users?$search=${many}&top=10`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.items).to.have.length(10);
      expect(res.body.countEstimated, 'an estimate says so').to.equal(true);
      expect(res.body.count).to.be.above(EXACT_COUNT_LIMIT);
      // Two significant digits: an estimate claims no more precision than it has.
      expect(String(res.body.count).replace(/^(\d{2})0*$/, '$1')).to.have.length.at.most(2);
      const narrow = await call(w, 'get', `/users?$search=${many}-10&top=2`);
      expect(narrow.body.count, '-10, -100…-109 and -1000…-1050').to.equal(62);
      expect(narrow.body).to.not.have.property('countEstimated');
      const last = await call(w, 'get', `/users?$search=${many}&skip=${EXACT_COUNT_LIMIT + 45}&top=10`);
      expect(last.body.items).to.have.length(5);
      expect(last.body, 'the last page is counted by what it read').to.include({ count: EXACT_COUNT_LIMIT + 50 }).and.not.have.property('countEstimated');
      await db().query(`DELETE FROM users WHERE normalized_email LIKE $1 || '-%@bulk.example'`, [many]);
      // The table's size as the planner sees it, as it was: other tests read plans.
      await db().query('VACUUM ANALYZE users');
    });

    it('pages with skip and top and sorts by any declared field, the count staying the total', async () => {
      const page = await call(w, 'get', `/users?$search=${t}&orderBy=firstName%20asc&skip=1&top=1`);
      expect(page.body).to.include({ count: 3 });
      expect(names(page)).to.deep.equal([users[1]!.userName]);
      const byLast = await call(w, 'get', `/users?$search=${t}&orderBy=lastName%20desc`);
      expect(names(byLast)).to.deep.equal([users[0]!.userName, users[1]!.userName, users[2]!.userName]);
      const byArea = await call(w, 'get', `/users?$search=${t}&orderBy=areaName%20asc`);
      // The database's collation decides the order of names.
      const expected = await db().query(`SELECT u.user_name FROM users u JOIN areas a ON a.id = u.area_id WHERE u.id = ANY($1::uuid[]) ORDER BY a.name, u.id`, [
        users.map((u) => u.id),
      ]);
      expect(names(byArea)).to.deep.equal(expected.map((r: { user_name: string }) => r.user_name));
      const past = await call(w, 'get', `/users?$search=${t}&skip=10`);
      expect(past.body).to.deep.equal({ items: [], count: 3 });
    });

    it('searches user name, e-mail, first and last name (and "first last"), taking pattern characters literally', async () => {
      await db().query(`UPDATE users SET email = $2 WHERE id = $1`, [users[1]!.id, `${t}-mailbox@corp.example`]);
      const find = async (term: string) => names(await call(w, 'get', `/users?$search=${encodeURIComponent(term)}`)).filter((n: string) => n.startsWith(t));
      expect(await find(`${t}-0`)).to.deep.equal([users[0]!.userName]);
      expect(await find(`${t}-MAILBOX`)).to.deep.equal([users[1]!.userName]);
      expect((await find('Zoé')).length).to.equal(1);
      expect(await find('50% off')).to.deep.equal([users[2]!.userName]);
      expect(await find('Alice 50%')).to.deep.equal([users[2]!.userName]);
      expect(await find('5_%')).to.deep.equal([]);
    });

    it('filters by lock state (a running temporary lockout counts as locked) and by area', async () => {
      await db().query(`UPDATE users SET locked = true WHERE id = $1`, [users[0]!.id]);
      await db().query(`UPDATE users SET lockout_end = now() + interval '5 minutes' WHERE id = $1`, [users[1]!.id]);
      try {
        expect(names(await call(w, 'get', `/users?$search=${t}&locked=true`)).sort()).to.deep.equal([users[0]!.userName, users[1]!.userName].sort());
        const open = await call(w, 'get', `/users?$search=${t}&locked=false`);
        expect(names(open)).to.deep.equal([users[2]!.userName]);
        expect(open.body.items[0].locked).to.equal(false);
        expect(names(await call(w, 'get', `/users?$search=${t}&area=${w.areaB.id}`))).to.deep.equal([users[1]!.userName]);
      } finally {
        await db().query(`UPDATE users SET locked = false, lockout_end = NULL WHERE id = ANY($1::uuid[])`, [[users[0]!.id, users[1]!.id]]);
      }
    });

    it('shows an AreaAdministrator the users of their areas only', async () => {
      const res = await call(w, 'get', `/users?$search=${t}`, { as: 'areaAdmin' });
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(2);
      expect(names(res)).to.deep.equal([users[2]!.userName, users[0]!.userName]);
      expect((await call(w, 'get', `/users?$search=${t}&area=${w.areaB.id}`, { as: 'areaAdmin' })).body).to.deep.equal({ items: [], count: 0 });
    });

    it('is readable by a TenantAdministrator', async () => {
      expect((await call(w, 'get', `/users?$search=${t}`, { as: 'tenantAdmin' })).body.count).to.equal(3);
    });

    it('refuses an unknown sort field, a bad lock filter or a malformed area with a 400 naming it', async () => {
      for (const [query, field] of [
        ['orderBy=password_hash%20asc', 'orderBy'],
        ['locked=maybe', 'locked'],
        ['area=not-a-uuid', 'area'],
        ['top=0', 'top'],
      ]) {
        const res = await call(w, 'get', `/users?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.errors[0], query).to.include({ field });
      }
    });

    it('finds the search terms through the trigram index, not a sequential scan', async () => {
      const sql = userListSql({ search: 'lovelace', areaIds: null }, 'u.modified_on DESC');
      const runner = db().createQueryRunner();
      await runner.connect();
      try {
        await runner.startTransaction();
        // Too few rows here for the planner to prefer an index on its own: show it is usable. Only
        // a bitmap scan is left to it, which no other index can serve for this condition (the
        // ordered walk of another index would depend on the table's statistics of the moment).
        await runner.query('SET LOCAL enable_seqscan = off');
        await runner.query('SET LOCAL enable_indexscan = off');
        const plan: Array<{ 'QUERY PLAN': string }> = await runner.query(`EXPLAIN ${sql.text}`, sql.values);
        expect(plan.map((row) => row['QUERY PLAN']).join('\n')).to.include('users__search_trgm');
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    });

    it('builds the shared list SQL only with a declared sort', () => {
      expect(() => userListSql({ search: null, areaIds: null }, 'u.user_name ASC; DROP TABLE users')).to.throw(TypeError);
      const sql = userListSql({ search: 'x', locked: true, areaId: w.areaA.id, areaIds: [w.areaA.id] }, 'a.name DESC');
      expect(sql.values).to.deep.equal(['%x%', w.areaA.id, [w.areaA.id]]);
      expect(sql.text).to.not.match(/LIMIT|OFFSET/);
    });
  });

  describe('GET /api/v1/admin/users, page after page', () => {
    /** Every sort of the list, both ways. */
    const SORTS = USER_SORT_FIELDS.flatMap((field) => (['asc', 'desc'] as const).map((direction) => ({ field, direction })));
    const TOP = 7;
    let t: string;

    before(async () => {
      t = tag();
      // 40 users with ties in every sort: the same change to the microsecond five at a time (and
      // dates a microsecond apart, which a millisecond would not tell apart), the same first name,
      // last name or e-mail address, no first or last name, locked or not; in two areas.
      await db().query(
        `INSERT INTO users (user_name, normalized_user_name, email, normalized_email, first_name, last_name, area_id, locked, modified_on)
         SELECT n, n, e, e, (ARRAY['Ana', 'Bob', NULL, 'Émile'])[1 + i % 4], CASE WHEN i % 5 = 0 THEN NULL ELSE (ARRAY['Lima', 'Stone', 'Zed'])[1 + i % 3] END,
                CASE WHEN i % 3 = 0 THEN $2::uuid ELSE $3::uuid END, i % 4 = 1,
                timestamptz '2030-01-01 12:00:00.000001+00' - (i % 8) * interval '1 minute' - (i % 2) * interval '1 microsecond'
           FROM (SELECT i, $1 || '-' || lpad(i::text, 2, '0') || '@example.com' AS n, $1 || '-' || (i % 13) || '@mail.example' AS e
                   FROM generate_series(0, 39) i) s`,
        [t, w.areaB.id, w.areaA.id],
      );
      // Enough users in all for a page deep enough to be read by its ids first.
      await db().query(
        `INSERT INTO users (user_name, normalized_user_name, email, normalized_email, area_id, modified_on)
         SELECT n, n, n, n, $2, timestamptz '2030-01-01 12:00:00+00' - (i % 3) * interval '1 second'
           FROM (SELECT i, $1 || '-' || i || '@example.com' AS n FROM generate_series(1, 110) i) s`,
        [tag(), w.areaA.id],
      );
    });

    /** The list's ids in one sorted read, as the list read them before it paged: the reference. */
    const reference = async (filter: { search: string | null; areaId?: string }, sort: { field: UserSortField; direction: string }) => {
      const sql = userListSql({ ...filter, areaIds: null }, `${USER_SORT[sort.field]} ${sort.direction.toUpperCase()}`);
      return ((await db().query(sql.text, sql.values)) as Array<{ id: string }>).map((row) => row.id);
    };
    const FILTERS = () => [
      { name: 'a search', filter: { search: t }, query: `$search=${t}` },
      { name: 'a search in an area', filter: { search: t, areaId: w.areaA.id }, query: `$search=${t}&area=${w.areaA.id}` },
      { name: 'an area', filter: { search: null, areaId: w.areaB.id }, query: `area=${w.areaB.id}` },
    ];
    const ids = (res: request.Response) => res.body.items.map((u: { id: string }) => u.id);

    it('answers the same pages by skip as one sorted read, first, middle, deep and last, in every sort with its ties', async () => {
      for (const { name, filter, query } of [...FILTERS(), { name: 'the whole list', filter: { search: null }, query: '' }]) {
        for (const sort of SORTS) {
          const all = await reference(filter, sort);
          for (const skip of [0, 2 * TOP, 105, Math.floor((all.length - 1) / TOP) * TOP]) {
            const res = await call(w, 'get', `/users?${query}&orderBy=${sort.field}%20${sort.direction}&skip=${skip}&top=${TOP}`);
            const what = `${name}, ${sort.field} ${sort.direction}, skip ${skip}`;
            expect(res.status, what).to.equal(200);
            expect(ids(res), what).to.deep.equal(all.slice(skip, skip + TOP));
            expect(res.body, what).to.include({ count: all.length });
          }
        }
      }
    });

    it('follows `next` from the first page to the last, the same rows as one sorted read, in every sort with its ties', async () => {
      for (const { name, filter, query } of FILTERS()) {
        for (const sort of SORTS) {
          const all = await reference(filter, sort);
          const read: string[] = [];
          let next: string | undefined;
          for (let page = 0; page === 0 || next !== undefined; page++) {
            const what = `${name}, ${sort.field} ${sort.direction}, page ${page + 1}`;
            const cursor = next === undefined ? '' : `&cursor=${encodeURIComponent(next)}`;
            const res = await call(w, 'get', `/users?${query}&orderBy=${sort.field}%20${sort.direction}&top=${TOP}${cursor}`);
            expect(res.status, what).to.equal(200);
            expect(ids(res), what).to.deep.equal(all.slice(read.length, read.length + TOP));
            expect(res.body, what).to.include({ count: all.length });
            read.push(...ids(res));
            next = res.body.next;
            expect(page, 'the pages end').to.be.below(all.length);
          }
          expect(read, `${name}, ${sort.field} ${sort.direction}: the last page has no next`).to.deep.equal(all);
        }
      }
    });

    it('skips after a cursor too, and keeps to the rows after it when rows are added or removed before it', async () => {
      const sort = { field: 'modifiedOn' as const, direction: 'desc' };
      const all = await reference({ search: t }, sort);
      const first = await call(w, 'get', `/users?$search=${t}&top=${TOP}`);
      const next = encodeURIComponent(first.body.next);
      expect(ids(await call(w, 'get', `/users?$search=${t}&top=${TOP}&skip=${TOP}&cursor=${next}`))).to.deep.equal(all.slice(2 * TOP, 3 * TOP));
      const newest = await userIn(w, w.areaA, { userName: `${t}-newest@example.com` });
      await db().query(`DELETE FROM users WHERE id = $1`, [all[0]]);
      try {
        expect(ids(await call(w, 'get', `/users?$search=${t}&top=${TOP}&cursor=${next}`))).to.deep.equal(all.slice(TOP, 2 * TOP));
      } finally {
        await db().query(`DELETE FROM users WHERE id = $1`, [newest.id]);
      }
    });

    it('reads a search page alike whichever way it takes: from all the matches, by a walk of the sort’s index, or by the planner’s plan', async () => {
      for (const { name, filter } of FILTERS().filter((f) => f.filter.search)) {
        for (const { field, direction } of SORTS) {
          const sort = sortOf(`${USER_SORT[field]} ${direction.toUpperCase()}`);
          const all = await reference(filter, { field, direction });
          const windows = [
            { after: null, skip: 0 },
            { after: null, skip: 2 * TOP },
            { after: null, skip: all.length - 3 },
            { after: (await listUsers(db(), { ...filter, areaIds: null }, { search: filter.search, skip: 0, top: TOP, orderBy: `${USER_SORT[field]} ${direction.toUpperCase()}` })).next, skip: 0 },
            { after: (await listUsers(db(), { ...filter, areaIds: null }, { search: filter.search, skip: TOP, top: TOP, orderBy: `${USER_SORT[field]} ${direction.toUpperCase()}` })).next, skip: 2 },
          ];
          for (const [i, window] of windows.entries()) {
            const start = [0, 2 * TOP, all.length - 3, TOP, 2 * TOP + 2][i]!;
            const expected = all.slice(start, start + TOP + 1);
            const page = { ...window, rows: TOP + 1 };
            const what = `${name}, ${field} ${direction}, window ${i + 1}`;
            const few = await pageOfFewMatches(db(), { ...filter, areaIds: null }, sort, page);
            expect(few.matched, what).to.equal(all.length);
            expect(few.rows.map((row) => row.id), `${what}: all the matches`).to.deep.equal(expected);
            expect((await pageByPlan(db(), { ...filter, areaIds: null }, sort, page)).map((row) => row.id), `${what}: the planner`).to.deep.equal(expected);
            const walked = await pageByWalk(db(), { ...filter, areaIds: null }, sort, page);
            if (walked) expect(walked.map((row) => row.id), `${what}: the walk`).to.deep.equal(expected);
            // A full page lies within the users the walk may read here: only an index serving the
            // order (and the area) makes it walk.
            const walks = (filter.areaId ? ['modifiedOn'] : ['modifiedOn', 'userName', 'email']).includes(field) && expected.length === TOP + 1;
            expect(walked !== null, `${what}: walks`).to.equal(walks);
          }
        }
      }
    });

    it('refuses a forged or malformed cursor, and one of another search, filter or sort, with a 400 naming it', async () => {
      const first = await call(w, 'get', `/users?$search=${t}&top=${TOP}`);
      const next: string = first.body.next;
      const [version, fingerprint, key, id] = JSON.parse(Buffer.from(next, 'base64url').toString('utf8'));
      const forge = (parts: unknown) => Buffer.from(typeof parts === 'string' ? parts : JSON.stringify(parts)).toString('base64url');
      for (const cursor of [
        'not a cursor',
        forge('{"key":1}'),
        forge([version + 1, fingerprint, key, id]),
        forge([version, fingerprint, key, 'not-a-uuid']),
        forge([version, fingerprint, key, "'; DROP TABLE users; --"]),
        forge([version, fingerprint, '2030-02-30T12:00:00.000000', id]),
        forge([version, fingerprint, '0000-01-01T00:00:00.000000', id]),
        forge([version, fingerprint, true, id]),
        forge([version, fingerprint, null, id]),
        forge([version, fingerprint, key]),
        'x'.repeat(5000),
      ]) {
        const res = await call(w, 'get', `/users?$search=${t}&top=${TOP}&cursor=${encodeURIComponent(cursor)}`);
        expect(res.status, cursor).to.equal(400);
        expect(res.body.errors[0], cursor).to.include({ field: 'cursor' });
      }
      // No text column holds a NUL character: refused before it reaches the database.
      const byName = `$search=${t}&top=${TOP}&orderBy=userName%20asc`;
      const [, nameFingerprint] = JSON.parse(Buffer.from((await call(w, 'get', `/users?${byName}`)).body.next, 'base64url').toString('utf8'));
      const withNul = await call(w, 'get', `/users?${byName}&cursor=${forge([version, nameFingerprint, 'a\u0000b', id])}`);
      expect(withNul.status).to.equal(400);
      expect(withNul.body.errors[0]).to.include({ field: 'cursor', code: 'validation.invalid' });
      for (const [query, lang, message] of [
        [`$search=${t}x&top=${TOP}`, 'en', 'cursor belongs to another search, filter or sort of this list: start again from its first page'],
        [`$search=${t}&orderBy=modifiedOn%20asc&top=${TOP}`, 'en', 'cursor belongs to another search, filter or sort of this list: start again from its first page'],
        [`$search=${t}&area=${w.areaA.id}&top=${TOP}`, 'fr', 'cursor appartient à une autre recherche, un autre filtre ou un autre tri de cette liste : recommencez à sa première page'],
      ] as const) {
        const res = await call(w, 'get', `/users?${query}&cursor=${encodeURIComponent(next)}`, { lang });
        expect(res.status, query).to.equal(400);
        expect(res.body.errors[0], query).to.include({ field: 'cursor', code: 'validation.cursor_other_list', message });
      }
    });

    it('reads pages through the indexes of the list’s order, by the users id after the date or the name, within an area too', async () => {
      const statements: Array<{ text: string; values: unknown[] }> = [];
      const recording = { query: async <T>(text: string, values: unknown[] = []) => (statements.push({ text, values }), (await db().query(text, values)) as T) };
      const plans: Record<string, string> = {};
      const planOf = async (name: string, read: () => Promise<unknown>) => {
        statements.length = 0;
        await read();
        const page = statements.find((s) => !s.text.startsWith('EXPLAIN'))!;
        const runner = db().createQueryRunner();
        await runner.connect();
        try {
          await runner.startTransaction();
          // Too few rows here for the planner to prefer an index on its own: show which one it can
          // walk in the list's order when a sequential read or a sort is not an option.
          for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await runner.query(`SET LOCAL ${setting} = off`);
          plans[name] = ((await runner.query(`EXPLAIN ${page.text}`, page.values)) as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']).join('\n');
        } finally {
          await runner.rollbackTransaction();
          await runner.release();
        }
      };
      const query = (orderBy: string, skip = 0) => ({ search: null, skip, top: TOP, orderBy });
      await planOf('newest first, deep', () => listUsers(recording, { search: null, areaIds: null }, query('u.modified_on DESC', 150)));
      // An area of its own, a few users among all: its index is the way to them, whatever the statistics say of the others.
      const [area] = await db().query(`INSERT INTO areas (name) VALUES ($1) RETURNING id, name`, [`paging-${t}`]);
      for (let i = 0; i < 3; i++) await userIn(w, area);
      await planOf('newest first in an area', () => listUsers(recording, { search: null, areaId: area.id, areaIds: null }, query('u.modified_on DESC')));
      await planOf('by user name', () => listUsers(recording, { search: null, areaIds: null }, query('u.user_name ASC')));
      await planOf('by e-mail', () => listUsers(recording, { search: null, areaIds: null }, query('u.email ASC')));
      await planOf('a search, walked', () => pageByWalk(recording, { search: t, areaIds: null }, sortOf('u.modified_on DESC'), { after: null, skip: 0, rows: TOP + 1 }));
      const indexes: Record<string, RegExp> = {
        'newest first, deep': /Index (Only )?Scan using users__modified_on_id/,
        'newest first in an area': /Index (Only )?Scan using users__area_id_modified_on_id/,
        'by user name': /Index (Only )?Scan using users__user_name_id/,
        'by e-mail': /Index (Only )?Scan using users__email_id/,
        'a search, walked': /Index Scan using users__modified_on_id/,
      };
      for (const [name, index] of Object.entries(indexes)) expect(plans[name], `${name}:\n${plans[name]}`).to.match(index);
      // Only the page's own rows are sorted, at the end: nothing below it is.
      for (const [name, plan] of Object.entries(plans)) expect(plan, `${name}, read in order:\n${plan}`).to.not.match(/->\s+(Incremental )?Sort/);
    });
  });

  describe('GET /api/v1/admin/users/{id}', () => {
    it('answers the list fields plus the detail fields', async () => {
      const user = await userIn(w, w.areaA, { jobTitle: 'Engineer', manager: 'Grace', teams: ['Core', 'Ops'], emailVerified: true, twoFactorEnabled: true });
      const res = await call(w, 'get', `/users/${user.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.have.keys([...LIST_ITEM_KEYS, 'jobTitle', 'manager', 'teams', 'emailVerified', 'twoFactorEnabled', 'lastLoginAt', 'createdAt']);
      expect(res.body).to.include({ id: user.id, userName: user.userName, jobTitle: 'Engineer', manager: 'Grace', emailVerified: true, twoFactorEnabled: true, lastLoginAt: null });
      expect(res.body.teams).to.deep.equal(['Core', 'Ops']);
      expect(res.body).to.not.have.any.keys('passwordHash', 'password_hash', 'totpSecretEncrypted');
    });

    it('answers 404 for an unknown or malformed id, and for a user outside an AreaAdministrator’s areas', async () => {
      expect((await call(w, 'get', `/users/${randomUUID()}`)).status).to.equal(404);
      for (const id of ['not-a-uuid', '123', "'; DROP TABLE users; --"]) {
        const res = await call(w, 'get', `/users/${encodeURIComponent(id)}`);
        expect(res.status, id).to.equal(404);
        expect(res.body.code).to.equal('errors.not_found');
      }
      const other = await userIn(w, w.areaB);
      expect((await call(w, 'get', `/users/${other.id}`, { as: 'areaAdmin' })).status).to.equal(404);
      expect((await call(w, 'get', `/users/${other.id}`, { as: 'tenantAdmin' })).status).to.equal(200);
    });
  });

  describe('POST /api/v1/admin/users', () => {
    it('creates the user with the given password, argon2-hashed, and answers 201 with the user', async () => {
      const body = newUserBody({ password: STRONG, confirmPassword: STRONG, validateScopes: true });
      const res = await call(w, 'post', '/users', { body });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ userName: body.userName, email: body.email, firstName: 'Ada', lastName: 'Lovelace', areaId: w.areaA.id, areaName: w.areaA.name, language: 'en', validateScopes: true, locked: false, draft: false });
      expect(JSON.stringify(res.body)).to.not.include(STRONG);
      const row = await userRow(res.body.id);
      expect(row.normalized_user_name).to.equal(body.userName.toLowerCase());
      expect(row.password_hash).to.match(/^\$argon2id\$/);
      expect(await w.context.passwords.verify(row.password_hash, STRONG)).to.equal(true);
      // An administrator knew this password: the user must choose their own at the first sign-in.
      expect(row.password_changed_at).to.equal(null);
      expect(row.modified_by_id).to.equal(w.callers.admin.id);
    });

    it('generates a random password satisfying the policy when none is given, and logs neither', async () => {
      const body = newUserBody();
      const res = await call(w, 'post', '/users', { body });
      expect(res.status).to.equal(201);
      const row = await userRow(res.body.id);
      expect(row.password_hash).to.match(/^\$argon2id\$/);
      const [log] = await logsAbout(w, res.body.id);
      expect(log).to.deep.equal({
        user_id: w.callers.admin.id,
        user_name: w.callers.admin.userName,
        tenant_id: null,
        tenant_name: null,
        operation: 'CreateUser',
        metadata: {
          targetUserId: res.body.id,
          targetUserName: body.userName,
          email: body.email,
          firstName: 'Ada',
          lastName: 'Lovelace',
          areaId: w.areaA.id,
          language: 'en',
          validateScopes: false,
          password: 'generated',
        },
      });
    });

    it('names every missing field with the spec’s message, in the caller’s language', async () => {
      const en = await call(w, 'post', '/users', { body: {} });
      expect(en.status).to.equal(400);
      expect(en.body.code).to.equal('errors.validation');
      expect(en.body.errors.map((e: { field: string; message: string }) => [e.field, e.message])).to.deep.equal([
        ['userName', 'Please input your username!'],
        ['email', 'Please input your email!'],
        ['firstName', 'Please input your first name!'],
        ['lastName', 'Please input your last name!'],
        ['areaId', 'Area required'],
        ['language', 'Please select your preferred language!'],
      ]);
      const fr = await call(w, 'post', '/users', { body: { ...newUserBody(), userName: '  ', language: undefined }, lang: 'fr' });
      expect(fr.body.errors.map((e: { field: string; message: string }) => [e.field, e.message])).to.deep.equal([
        ['userName', 'Veuillez saisir votre nom d’utilisateur !'],
        ['language', 'Veuillez choisir votre langue préférée !'],
      ]);
      // French is the default when the caller names no language.
      const none = await call(w, 'post', '/users', { body: { ...newUserBody(), firstName: '' }, lang: '' });
      expect(none.body.errors[0]).to.include({ field: 'firstName', code: 'users.first_name_required', message: 'Veuillez saisir votre prénom !' });
    });

    it('refuses a malformed e-mail, an unknown language and an unknown field, naming each', async () => {
      const res = await call(w, 'post', '/users', { body: { ...newUserBody(), email: 'not-an-address', language: 'xx', nickname: 'x' } });
      expect(res.status).to.equal(400);
      const byField = Object.fromEntries(res.body.errors.map((e: { field: string }) => [e.field, e]));
      expect(byField.email).to.include({ code: 'validation.invalid_email', message: 'Invalid email address.' });
      expect(byField.language).to.include({ code: 'users.language_invalid', message: 'Invalid preferred language' });
      expect(byField.nickname.code).to.equal('validation.unknown_field');
    });

    it('requires the confirmation with a password, and the same password, and applies the policy', async () => {
      const missing = await call(w, 'post', '/users', { body: newUserBody({ password: STRONG }) });
      expect(missing.status).to.equal(400);
      expect(missing.body.errors).to.deep.equal([{ field: 'confirmPassword', code: 'users.confirm_password_required', message: 'Please confirm your password!' }]);
      const onlyConfirm = await call(w, 'post', '/users', { body: newUserBody({ confirmPassword: STRONG }), lang: 'fr' });
      expect(onlyConfirm.body.errors).to.deep.equal([{ field: 'password', code: 'users.password_required', message: 'Veuillez saisir votre mot de passe !' }]);
      const mismatch = await call(w, 'post', '/users', { body: newUserBody({ password: STRONG, confirmPassword: `${STRONG}x` }) });
      expect(mismatch.body.errors).to.deep.equal([{ field: 'confirmPassword', code: 'users.passwords_mismatch', message: 'The passwords you entered do not match' }]);
      const mismatchFr = await call(w, 'post', '/users', { body: newUserBody({ password: STRONG, confirmPassword: `${STRONG}x` }), lang: 'fr' });
      expect(mismatchFr.body.errors[0].message).to.equal('Les mots de passe saisis ne correspondent pas');
      const weak = await call(w, 'post', '/users', { body: newUserBody({ password: 'short', confirmPassword: 'short' }) });
      expect(weak.body.errors.map((e: { code: string }) => e.code)).to.deep.equal(['password.too_short', 'password.uppercase', 'password.digit', 'password.symbol']);
      expect(weak.body.errors[0]).to.include({ field: 'password', message: 'The password must have at least 12 characters' });
    });

    it('refuses a user name already taken in any letter case (409) and an unknown area (400)', async () => {
      const body = newUserBody();
      expect((await call(w, 'post', '/users', { body })).status).to.equal(201);
      const again = await call(w, 'post', '/users', { body: { ...newUserBody(), userName: body.userName.toUpperCase() } });
      expect(again.status).to.equal(409);
      expect(again.body).to.include({ code: 'errors.user_name_in_use', message: 'A user with this user name already exists' });
      const noArea = await call(w, 'post', '/users', { body: newUserBody({ areaId: randomUUID() }) });
      expect(noArea.status).to.equal(400);
      expect(noArea.body.errors).to.deep.equal([{ field: 'areaId', code: 'users.area_not_found', message: 'Area not found' }]);
    });

    it('lets an AreaAdministrator create into their areas only', async () => {
      expect((await call(w, 'post', '/users', { as: 'areaAdmin', body: newUserBody() })).status).to.equal(201);
      const body = newUserBody({ areaId: w.areaB.id });
      const res = await call(w, 'post', '/users', { as: 'areaAdmin', body });
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: 'users.area_out_of_scope', message: 'You cannot manage users of this area' });
      expect((await db().query(`SELECT 1 FROM users WHERE normalized_user_name = $1`, [body.userName.toLowerCase()])).length).to.equal(0);
    });

    it('is refused to a TenantAdministrator and a Manager (403)', async () => {
      for (const as of ['tenantAdmin', 'manager'] as const) {
        const res = await call(w, 'post', '/users', { as, body: newUserBody() });
        expect(res.status, as).to.equal(403);
        expect(res.body.message).to.equal('You do not have permission to perform this action');
      }
    });

    it('sends the invitation when asked', async () => {
      const body = newUserBody({ sendEmailInvite: true, language: 'fr' });
      const res = await call(w, 'post', '/users', { body });
      expect(res.status).to.equal(201);
      expect(res.body.invitationSent).to.equal(true);
      const mails = await db().query(`SELECT template, language FROM mail_outbox WHERE to_address = $1`, [body.email]);
      expect(mails).to.deep.equal([{ template: 'invitation', language: 'fr' }]);
      expect((await logsAbout(w, res.body.id)).map((l) => l.operation)).to.deep.equal(['CreateUser', 'InviteUser']);
    });
  });

  describe('PUT /api/v1/admin/users/{id}', () => {
    const edit = (overrides: Record<string, unknown> = {}) => ({ email: `${tag()}@example.org`, firstName: 'Grace', lastName: 'Hopper', language: 'de', areaId: w.areaA.id, ...overrides });

    it('changes the editable fields, answers the user, logs what changed and tells the other nodes', async () => {
      const user = await userIn(w, w.areaA, { firstName: 'Old', lastName: 'Name', language: 'fr', emailVerified: true });
      const heard = listen(w, 'user.changed');
      const body = edit({ areaId: w.areaB.id, validateScopes: true });
      const res = await call(w, 'put', `/users/${user.id}`, { body });
      heard.stop();
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ id: user.id, userName: user.userName, email: body.email, firstName: 'Grace', lastName: 'Hopper', language: 'de', areaId: w.areaB.id, areaName: w.areaB.name, validateScopes: true });
      expect((await userRow(user.id)).normalized_email).to.equal(body.email.toLowerCase());
      // The new address has not been verified.
      expect(res.body.emailVerified).to.equal(false);
      expect(heard.events).to.deep.include({ userId: user.id });
      const [log] = await logsAbout(w, user.id);
      expect(log).to.deep.include({ operation: 'UpdateUser', user_id: w.callers.admin.id, user_name: w.callers.admin.userName });
      expect(log!.metadata).to.deep.equal({
        targetUserId: user.id,
        targetUserName: user.userName,
        changes: {
          email: { from: user.email, to: body.email },
          firstName: { from: 'Old', to: 'Grace' },
          lastName: { from: 'Name', to: 'Hopper' },
          language: { from: 'fr', to: 'de' },
          areaId: { from: w.areaA.id, to: w.areaB.id },
          validateScopes: { from: false, to: true },
        },
      });
    });

    it('refuses a read-only field by name, in the caller’s language', async () => {
      const user = await userIn(w, w.areaA);
      const res = await call(w, 'put', `/users/${user.id}`, { body: { ...edit(), userName: 'renamed@example.com', teams: [] } });
      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.equal([
        { field: 'userName', code: 'users.read_only_field', message: 'userName cannot be changed' },
        { field: 'teams', code: 'users.read_only_field', message: 'teams cannot be changed' },
      ]);
      const fr = await call(w, 'put', `/users/${user.id}`, { body: { ...edit(), jobTitle: 'Boss' }, lang: 'fr' });
      expect(fr.body.errors[0].message).to.equal('jobTitle ne peut pas être modifié');
      expect((await userRow(user.id)).user_name).to.equal(user.userName);
    });

    it('names the missing fields with the spec’s messages', async () => {
      const user = await userIn(w, w.areaA);
      const res = await call(w, 'put', `/users/${user.id}`, { body: { email: '', areaId: w.areaA.id, language: 'en' } });
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { message: string }) => e.message)).to.deep.equal([
        'Please input your email!',
        'Please input your first name!',
        'Please input your last name!',
      ]);
    });

    it('keeps an AreaAdministrator to users of their areas, and from moving them out', async () => {
      const own = await userIn(w, w.areaA);
      const other = await userIn(w, w.areaB);
      expect((await call(w, 'put', `/users/${other.id}`, { as: 'areaAdmin', body: edit({ areaId: w.areaB.id }) })).status).to.equal(404);
      const out = await call(w, 'put', `/users/${own.id}`, { as: 'areaAdmin', body: edit({ areaId: w.areaB.id }) });
      expect(out.status).to.equal(403);
      expect(out.body.code).to.equal('users.area_out_of_scope');
      expect((await userRow(own.id)).area_id).to.equal(w.areaA.id);
      expect((await call(w, 'put', `/users/${own.id}`, { as: 'areaAdmin', body: edit() })).status).to.equal(200);
    });

    it('lets only an administrator change an administrator’s account', async () => {
      const res = await call(w, 'put', `/users/${w.callers.admin.id}`, { as: 'areaAdmin', body: edit() });
      expect(res.status).to.equal(403);
      expect((await userRow(w.callers.admin.id)).email).to.equal(w.callers.admin.email);
    });

    it('is refused to a TenantAdministrator (403)', async () => {
      const user = await userIn(w, w.areaA);
      expect((await call(w, 'put', `/users/${user.id}`, { as: 'tenantAdmin', body: edit() })).status).to.equal(403);
    });
  });

  describe('DELETE /api/v1/admin/users/{id}', () => {
    it('deletes the user with their memberships and tokens, ends their sessions and logs it', async () => {
      const user = await userIn(w, w.areaA);
      const bystander = await userIn(w, w.areaA);
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [user] });
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Reader!] });
      await db().query(`INSERT INTO user_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, 'PasswordReset', $2, now() + interval '1 hour')`, [user.id, sha256(tag())]);
      await insertProviderSessions(w, user.id);
      await insertProviderSessions(w, bystander.id);
      const heard = listen(w, 'oidc.invalidated');
      const res = await call(w, 'delete', `/users/${user.id}`);
      heard.stop();
      expect(res.status).to.equal(204);
      expect(await userRow(user.id)).to.equal(undefined);
      expect(await db().query(`SELECT 1 FROM group_members WHERE group_id = $1`, [group.id])).to.deep.equal([]);
      expect(await db().query(`SELECT 1 FROM tenant_members WHERE user_id = $1`, [user.id])).to.deep.equal([]);
      expect(await db().query(`SELECT 1 FROM user_tokens WHERE user_id = $1`, [user.id])).to.deep.equal([]);
      expect(await providerSessionCount(w, user.id)).to.equal(0);
      expect(await providerSessionCount(w, bystander.id)).to.equal(2);
      expect(heard.events).to.deep.include({ accountId: user.id });
      const [log] = await logsAbout(w, user.id);
      expect(log).to.deep.include({ operation: 'DeleteUser', user_id: w.callers.admin.id });
      expect(log!.metadata).to.deep.equal({ targetUserId: user.id, targetUserName: user.userName, email: user.email, areaId: w.areaA.id, sessionsEnded: 2 });
    });

    it('refuses to delete the caller’s own account', async () => {
      const en = await call(w, 'delete', `/users/${w.callers.areaAdmin.id}`, { as: 'areaAdmin' });
      expect(en.status).to.equal(400);
      expect(en.body).to.include({ code: 'users.cannot_delete_self', message: 'You cannot delete your own account' });
      const fr = await call(w, 'delete', `/users/${w.callers.areaAdmin.id}`, { as: 'areaAdmin', lang: 'fr' });
      expect(fr.body.message).to.equal('Vous ne pouvez pas supprimer votre propre compte');
      expect(await userRow(w.callers.areaAdmin.id)).to.not.equal(undefined);
    });

    it('answers 404 outside an AreaAdministrator’s areas and for a malformed id, 403 to a TenantAdministrator', async () => {
      const other = await userIn(w, w.areaB);
      expect((await call(w, 'delete', `/users/${other.id}`, { as: 'areaAdmin' })).status).to.equal(404);
      expect((await call(w, 'delete', `/users/${other.id}`, { as: 'tenantAdmin' })).status).to.equal(403);
      expect((await call(w, 'delete', '/users/nope')).status).to.equal(404);
      expect(await userRow(other.id)).to.not.equal(undefined);
    });
  });

  describe('POST /api/v1/admin/users/inviteUser/{id}', () => {
    const keptMails = (to: string) => db().query(`SELECT id, template, language FROM mail_outbox WHERE to_address = $1 ORDER BY created_at`, [to]);

    it('mails a 7-day single-use link to choose a password, storing only its hash, and logs it', async () => {
      const user = await userIn(w, w.areaA, { language: 'it', firstName: 'Lina' });
      const res = await call(w, 'post', `/users/inviteUser/${user.id}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ success: true, message: 'Invitation mail sent successfully.' });

      const [mail] = await keptMails(user.email);
      expect(mail).to.include({ template: 'invitation', language: 'it' });
      const content = await new Mailer(w.context).readKept(mail.id);
      const href = /https?:\/\/\S+\/account\/changePassword\?[^\s"<]+/.exec(content!.text)![0];
      const link = new URL(href);
      expect(link.origin + link.pathname).to.equal(`${w.context.config.server.publicUrl}/account/changePassword`);
      expect(link.searchParams.get('identityName')).to.equal(user.userName);
      expect(link.searchParams.get('returnUrl')).to.equal(`${w.context.config.server.publicUrl}/`);
      const token = link.searchParams.get('token')!;

      const [stored] = await db().query(`SELECT token_hash, purpose, context, expires_at - created_at AS ttl FROM user_tokens WHERE user_id = $1`, [user.id]);
      expect(stored.token_hash).to.equal(sha256(token));
      expect(stored).to.deep.include({ purpose: 'PasswordReset', context: { invitation: true } });
      expect(stored.ttl.days).to.equal(7);
      // The portal's changePassword page accepts it.
      expect((await findUserToken(w.context, token, 'PasswordReset'))?.user_id).to.equal(user.id);

      const [log] = await logsAbout(w, user.id);
      expect(log).to.deep.include({ operation: 'InviteUser', user_id: w.callers.admin.id });
      expect(log!.metadata).to.deep.equal({ targetUserId: user.id, targetUserName: user.userName, email: user.email, validDays: 7 });
      expect(JSON.stringify(log)).to.not.include(token);
    });

    it('answers in the caller’s language, and a new invitation replaces the previous link', async () => {
      const user = await userIn(w, w.areaA);
      await call(w, 'post', `/users/inviteUser/${user.id}`);
      const res = await call(w, 'post', `/users/inviteUser/${user.id}`, { lang: 'fr' });
      expect(res.body).to.deep.equal({ success: true, message: 'E-mail d’invitation envoyé avec succès.' });
      const tokens = await db().query(`SELECT consumed_at IS NULL AS live FROM user_tokens WHERE user_id = $1 ORDER BY created_at, id`, [user.id]);
      expect(tokens.filter((t: { live: boolean }) => t.live)).to.have.length(1);
      expect(tokens).to.have.length(2);
    });

    it('refuses a draft (pending approval) or locked user', async () => {
      const draft = await userIn(w, w.areaA, { draft: true });
      const res = await call(w, 'post', `/users/inviteUser/${draft.id}`);
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'users.draft_not_invitable', message: 'A user pending approval cannot be invited' });
      const fr = await call(w, 'post', `/users/inviteUser/${draft.id}`, { lang: 'fr' });
      expect(fr.body.message).to.equal('Un utilisateur en attente d’approbation ne peut pas être invité');
      const locked = await userIn(w, w.areaA, { locked: true });
      expect((await call(w, 'post', `/users/inviteUser/${locked.id}`)).body.code).to.equal('users.locked_not_invitable');
      expect(await db().query(`SELECT 1 FROM user_tokens WHERE user_id = ANY($1::uuid[])`, [[draft.id, locked.id]])).to.deep.equal([]);
    });

    it('answers 404 outside an AreaAdministrator’s areas and 403 to a TenantAdministrator', async () => {
      const other = await userIn(w, w.areaB);
      expect((await call(w, 'post', `/users/inviteUser/${other.id}`, { as: 'areaAdmin' })).status).to.equal(404);
      expect((await call(w, 'post', `/users/inviteUser/${other.id}`, { as: 'tenantAdmin' })).status).to.equal(403);
      expect(await keptMails(other.email)).to.deep.equal([]);
    });
  });

  describe('POST /api/v1/admin/users/change-password/{userId}', () => {
    const change = (id: string, body: unknown, options: { lang?: string; as?: 'admin' | 'areaAdmin' | 'tenantAdmin' } = {}) =>
      call(w, 'post', `/users/change-password/${id}`, { body, ...options });

    it('sets the password, ends the user’s sessions, logs it and answers a message', async () => {
      const user = await userIn(w, w.areaA);
      await insertProviderSessions(w, user.id);
      const res = await change(user.id, { password: STRONG, confirmPassword: STRONG });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ success: true, message: 'The password has been changed' });
      const row = await userRow(user.id);
      expect(await w.context.passwords.verify(row.password_hash, STRONG)).to.equal(true);
      expect(await providerSessionCount(w, user.id)).to.equal(0);
      const [log] = await logsAbout(w, user.id);
      expect(log).to.deep.include({ operation: 'ChangeUserPassword', user_id: w.callers.admin.id });
      expect(log!.metadata).to.deep.equal({ targetUserId: user.id, targetUserName: user.userName, sessionsEnded: 2 });
      expect(JSON.stringify(log)).to.not.include(STRONG);
      const fr = await change(user.id, { password: `${STRONG}!`, confirmPassword: `${STRONG}!` }, { lang: 'fr' });
      expect(fr.body.message).to.equal('Le mot de passe a été modifié');
    });

    it('requires both fields, with the spec’s messages in English and French', async () => {
      const user = await userIn(w, w.areaA);
      const en = await change(user.id, {});
      expect(en.status).to.equal(400);
      expect(en.body.errors.map((e: { field: string; message: string }) => [e.field, e.message])).to.deep.equal([
        ['password', 'Please input the new password!'],
        ['confirmPassword', 'Please input the password confirmation!'],
      ]);
      const fr = await change(user.id, { password: '', confirmPassword: '' }, { lang: 'fr' });
      expect(fr.body.errors.map((e: { message: string }) => e.message)).to.deep.equal([
        'Veuillez saisir le nouveau mot de passe !',
        'Veuillez saisir la confirmation du mot de passe !',
      ]);
    });

    it('refuses a mismatch, a password breaking the policy, and a recent password', async () => {
      const user = await userIn(w, w.areaA);
      const mismatch = await change(user.id, { password: STRONG, confirmPassword: 'Other-Passw0rd-123' });
      expect(mismatch.body.errors).to.deep.equal([{ field: 'confirmPassword', code: 'users.passwords_mismatch', message: 'The passwords you entered do not match' }]);
      const weak = await change(user.id, { password: 'alllowercase', confirmPassword: 'alllowercase' });
      expect(weak.body.errors.map((e: { code: string }) => e.code)).to.deep.equal(['password.uppercase', 'password.digit', 'password.symbol']);
      expect((await change(user.id, { password: STRONG, confirmPassword: STRONG })).status).to.equal(200);
      const reused = await change(user.id, { password: STRONG, confirmPassword: STRONG });
      expect(reused.status).to.equal(400);
      expect(reused.body.errors).to.deep.equal([{ field: 'password', code: 'password.reused', message: 'The password cannot be one of your last 7 passwords' }]);
      expect((await logsAbout(w, user.id)).filter((l) => l.operation === 'ChangeUserPassword')).to.have.length(1);
    });

    it('does not change the caller’s own password (the profile asks for the current one)', async () => {
      const res = await change(w.callers.areaAdmin.id, { password: STRONG, confirmPassword: STRONG }, { as: 'areaAdmin' });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('Change your own password from your profile page');
    });

    it('answers 404 outside an AreaAdministrator’s areas and 403 to a TenantAdministrator', async () => {
      const other = await userIn(w, w.areaB);
      expect((await change(other.id, { password: STRONG, confirmPassword: STRONG }, { as: 'areaAdmin' })).status).to.equal(404);
      expect((await change(other.id, { password: STRONG, confirmPassword: STRONG }, { as: 'tenantAdmin' })).status).to.equal(403);
      expect((await userRow(other.id)).password_hash).to.equal(null);
    });
  });

  describe('GET /api/v1/admin/users/{id}/groups and /check/permissions/{id}', () => {
    it('lists the user’s groups by name, with permission and area', async () => {
      const user = await userIn(w, w.areaA);
      const t = tag();
      const second = await buildGroup(db(), { areaId: w.areaB.id, name: `${t}-beta` });
      const first = await buildGroup(db(), { areaId: w.areaA.id, name: `${t}-alpha` });
      await db().query(`INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $3, 'Owner'), ($2, $3, 'Reader')`, [first.id, second.id, user.id]);
      const res = await call(w, 'get', `/users/${user.id}/groups`, { as: 'tenantAdmin' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        items: [
          { groupId: first.id, groupName: first.name, permission: 'Owner', areaName: w.areaA.name },
          { groupId: second.id, groupName: second.name, permission: 'Reader', areaName: w.areaB.name },
        ],
        count: 2,
      });
      const perms = await call(w, 'get', `/users/check/permissions/${user.id}`, { as: 'manager' });
      expect(perms.body).to.deep.equal({ groups: [first.name, second.name], applicationPermissions: [] });
    });

    it('checks permissions: group names and, per application, the effective role names', async () => {
      const user = await userIn(w, w.areaA);
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [user] });
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Reader!] });
      await grant(db(), { tenant: w.tenantB, group, roles: [w.crm.roleByName.Writer!, w.crm.roleByName.Reader!] });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user, roles: [w.identity.roleByName.User!] });
      const res = await call(w, 'get', `/users/check/permissions/${user.id}`);
      const [crm, identity] = await db().query('SELECT display_name FROM applications WHERE id = ANY($1) ORDER BY name', [[w.crm.id, w.identity.id]]);
      const own = { via: 'own', groupName: null, tenantName: null };
      const throughGroup = { via: 'group', groupName: group.name, tenantName: null };
      const role = (r: { id: string; name: string }, tenant: { id: string; title: string }, origins: unknown[]) => ({ roleId: r.id, roleName: r.name, tenantId: tenant.id, tenantName: tenant.title, origins });
      const global = { id: GLOBAL_TENANT_ID, title: 'Global' };
      expect(res.body.groups).to.deep.equal([group.name]);
      expect(res.body.applicationPermissions.map((a: { applicationName: string; roles: string[] }) => [a.applicationName, a.roles])).to.deep.equal([
        ['crm', ['Reader', 'Writer']],
        ['identity', ['User']],
      ]);
      const [crmAccess, identityAccess] = res.body.applicationPermissions;
      expect(crmAccess.applicationDisplayName).to.equal(crm.display_name);
      expect(crmAccess.grants).to.deep.equal(
        [
          role(w.crm.roleByName.Reader!, w.tenantA, [own]),
          role(w.crm.roleByName.Reader!, w.tenantB, [throughGroup]),
          role(w.crm.roleByName.Writer!, w.tenantB, [throughGroup]),
        ].sort((a, b) => a.roleName.localeCompare(b.roleName) || a.tenantName.localeCompare(b.tenantName)),
      );
      expect(identityAccess).to.deep.include({ applicationDisplayName: identity.display_name, grants: [role(w.identity.roleByName.User!, global, [own])] });
      const other = await userIn(w, w.areaB);
      expect((await call(w, 'get', `/users/check/permissions/${other.id}`, { as: 'areaAdmin' })).status).to.equal(404);
    });
  });

  describe('role access: GET /users/{id}/tenants, GET /users/{id}/roles, PUT and DELETE /users/{id}/roles/{applicationId}', () => {
    let user: User;
    const crmItem = async (id = user.id) => (await call(w, 'get', `/users/${id}/roles`)).body.items.find((i: { applicationId: string }) => i.applicationId === w.crm.id);
    const badge = (item: { roles: Array<{ roleName: string; tenantId: string }> }, roleName: string, tenantId: string) =>
      item.roles.find((r) => r.roleName === roleName && r.tenantId === tenantId);

    beforeEach(async () => {
      user = await userIn(w, w.areaA);
    });

    it('lists every application by display name, with badges (own, through a group, inherited) and the roles to pick', async () => {
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [user] });
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Reader!] });
      await grant(db(), { tenant: w.tenantA, group, roles: [w.crm.roleByName.Reader!, w.crm.roleByName.Writer!] });
      await grant(db(), { tenant: w.childA, user, roles: [], inheritable: true });
      const res = await call(w, 'get', `/users/${user.id}/roles`, { as: 'tenantAdmin' });
      expect(res.status).to.equal(200);
      const displayNames = res.body.items.map((i: { displayName: string }) => i.displayName);
      expect(displayNames).to.deep.equal([...displayNames].sort((a: string, b: string) => a.localeCompare(b)));
      const item = res.body.items.find((i: { applicationId: string }) => i.applicationId === w.crm.id);
      expect(item).to.include({ applicationName: 'crm', displayName: 'CRM', hasAccess: true, byHierarchy: true });
      expect(badge(item, 'Reader', w.tenantA.id)).to.deep.include({ hierarchyType: 'Both', removable: true, isGlobal: false, tenantName: w.tenantA.title });
      expect(badge(item, 'Writer', w.tenantA.id)).to.deep.include({ hierarchyType: 'ByHierarchy', removable: false });
      // Inherited by the child tenant the user belongs to.
      expect(badge(item, 'Reader', w.childA.id)).to.deep.include({ hierarchyType: 'ByHierarchy', removable: false });
      // Each badge says every way the user holds it: in their own name, through the group (named), inherited (the parent named).
      expect(badge(item, 'Reader', w.tenantA.id)!).to.have.deep.property('origins', [
        { via: 'own', groupName: null, tenantName: null },
        { via: 'group', groupName: group.name, tenantName: null },
      ]);
      expect(badge(item, 'Writer', w.tenantA.id)!).to.have.deep.property('origins', [{ via: 'group', groupName: group.name, tenantName: null }]);
      expect(badge(item, 'Reader', w.childA.id)!).to.have.deep.property('origins', [
        { via: 'hierarchy', groupName: null, tenantName: w.tenantA.title },
        { via: 'hierarchy', groupName: group.name, tenantName: w.tenantA.title },
      ]);
      expect(item.availableRoles.map((r: { name: string; byHierarchy: boolean }) => [r.name, r.byHierarchy])).to.deep.equal([
        ['Auditor', true],
        ['Reader', false],
        ['Writer', false],
      ]);
      const identity = res.body.items.find((i: { applicationId: string }) => i.applicationId === w.identity.id);
      expect(identity).to.include({ hasAccess: false, byHierarchy: false });
      expect(identity.roles).to.deep.equal([]);
    });

    it('lists the tenants the user belongs to, the Global tenant first, with role badges', async () => {
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [user] });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user, roles: [w.identity.roleByName.User!] });
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Reader!], inheritable: false });
      await grant(db(), { tenant: w.tenantB, group, roles: [w.crm.roleByName.Writer!] });
      const res = await call(w, 'get', `/users/${user.id}/tenants`);
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(3);
      const [global, ...rest] = res.body.items;
      expect(global).to.deep.equal({
        tenantId: GLOBAL_TENANT_ID,
        tenantName: 'Global',
        isGlobal: true,
        isInheritable: true,
        hierarchyType: 'Own',
        roles: [
          {
            roleId: w.identity.roleByName.User!.id,
            roleName: 'User',
            applicationId: w.identity.id,
            applicationName: 'identity',
            applicationDisplayName: 'Identity',
            hierarchyType: 'Own',
            isGlobal: true,
            origins: [{ via: 'own', groupName: null, tenantName: null }],
          },
        ],
      });
      const a = rest.find((i: { tenantId: string }) => i.tenantId === w.tenantA.id);
      expect(a).to.deep.include({ isGlobal: false, isInheritable: false, hierarchyType: 'Own' });
      expect(a.roles.map((r: { roleName: string; hierarchyType: string }) => [r.roleName, r.hierarchyType])).to.deep.equal([['Reader', 'Own']]);
      const b = rest.find((i: { tenantId: string }) => i.tenantId === w.tenantB.id);
      expect(b).to.deep.include({ hierarchyType: 'ByHierarchy', isInheritable: true });
      expect(b.roles.map((r: { roleName: string; hierarchyType: string }) => [r.roleName, r.hierarchyType])).to.deep.equal([['Writer', 'ByHierarchy']]);
      expect(b.roles[0]).to.deep.include({ applicationDisplayName: 'CRM', origins: [{ via: 'group', groupName: group.name, tenantName: null }] });
    });

    it('grants roles on the user’s own membership (created if missing), answers the item, logs and broadcasts', async () => {
      const heard = listen(w, 'roles.changed');
      const res = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, {
        body: { tenantId: w.tenantB.id, roleIds: [w.crm.roleByName.Reader!.id, w.crm.roleByName.Writer!.id] },
      });
      heard.stop();
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ applicationId: w.crm.id, hasAccess: true, byHierarchy: false });
      expect(res.body.roles.map((r: { roleName: string; hierarchyType: string; removable: boolean }) => [r.roleName, r.hierarchyType, r.removable])).to.deep.equal([
        ['Reader', 'Own', true],
        ['Writer', 'Own', true],
      ]);
      expect(heard.events).to.deep.include({ userId: user.id });
      const [log] = await logsAbout(w, user.id);
      expect(log).to.deep.equal({
        user_id: w.callers.admin.id,
        user_name: w.callers.admin.userName,
        tenant_id: w.tenantB.id,
        tenant_name: w.tenantB.title,
        operation: 'Permission',
        metadata: {
          action: 'grant',
          via: 'users',
          identityType: 'User',
          targetUserId: user.id,
          targetUserName: user.userName,
          added: [
            { roleId: w.crm.roleByName.Reader!.id, roleName: 'Reader', applicationId: w.crm.id, applicationName: 'crm' },
            { roleId: w.crm.roleByName.Writer!.id, roleName: 'Writer', applicationId: w.crm.id, applicationName: 'crm' },
          ],
          removed: [],
          membershipCreated: true,
          isInheritable: true,
        },
      });
      // Granting again changes nothing and logs nothing.
      await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { body: { tenantId: w.tenantB.id, roleIds: [w.crm.roleByName.Reader!.id] } });
      expect(await logsAbout(w, user.id)).to.have.length(1);
    });

    it('grants in the Global tenant when none is given (Administrator)', async () => {
      const res = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { body: { roleIds: [w.crm.roleByName.Reader!.id] } });
      expect(res.status).to.equal(200);
      expect(res.body.roles).to.deep.equal([
        {
          roleId: w.crm.roleByName.Reader!.id,
          roleName: 'Reader',
          description: null,
          tenantId: GLOBAL_TENANT_ID,
          tenantName: 'Global',
          isGlobal: true,
          hierarchyType: 'Own',
          removable: true,
          origins: [{ via: 'own', groupName: null, tenantName: null }],
        },
      ]);
    });

    it('refuses a role of another application and a role flagged byHierarchy, with the spec’s message', async () => {
      const foreign = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { body: { tenantId: w.tenantA.id, roleIds: [w.identity.roleByName.User!.id] } });
      expect(foreign.status).to.equal(400);
      expect(foreign.body).to.include({ code: 'users.role_not_available', message: 'Role not found or not available for the selected application' });
      expect(foreign.body.errors[0]).to.include({ field: 'roleIds' });
      const fr = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { body: { tenantId: w.tenantA.id, roleIds: [randomUUID()] }, lang: 'fr' });
      expect(fr.body.message).to.equal('Rôle introuvable ou non disponible pour l’application sélectionnée');
      const flagged = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { body: { tenantId: w.tenantA.id, roleIds: [w.crm.roleByName.Auditor!.id] } });
      expect(flagged.status).to.equal(400);
      expect(flagged.body.code).to.equal('users.role_by_hierarchy');
      const empty = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { body: { tenantId: w.tenantA.id, roleIds: [] } });
      expect(empty.body.errors[0]).to.include({ field: 'roleIds' });
      expect(await db().query(`SELECT 1 FROM tenant_members WHERE user_id = $1`, [user.id])).to.deep.equal([]);
    });

    it('answers 404 for an unknown application and 400 for an unknown tenant', async () => {
      const app = await call(w, 'put', `/users/${user.id}/roles/no-such-app`, { body: { roleIds: [w.crm.roleByName.Reader!.id] } });
      expect(app.status).to.equal(404);
      expect(app.body.message).to.equal('Application not found');
      const tenant = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { body: { tenantId: randomUUID(), roleIds: [w.crm.roleByName.Reader!.id] } });
      expect(tenant.status).to.equal(400);
      expect(tenant.body.errors).to.deep.equal([{ field: 'tenantId', code: 'users.tenant_not_found', message: 'Tenant not found' }]);
    });

    it('keeps the Global tenant and the Identity application’s roles to administrators, the God role to God', async () => {
      const global = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { as: 'manager', body: { roleIds: [w.crm.roleByName.Reader!.id] } });
      expect(global.status).to.equal(403);
      expect(global.body.code).to.equal('users.global_tenant_admin_only');
      const identity = await call(w, 'put', `/users/${user.id}/roles/${w.identity.id}`, {
        as: 'manager',
        body: { tenantId: w.tenantA.id, roleIds: [w.identity.roleByName.Administrator!.id] },
      });
      expect(identity.body.code).to.equal('users.identity_roles_admin_only');
      const god = await call(w, 'put', `/users/${user.id}/roles/${w.identity.id}`, { body: { roleIds: [w.identity.roleByName.God!.id] } });
      expect(god.status).to.equal(403);
      expect(god.body.code).to.equal('users.god_role_god_only');
      expect((await call(w, 'put', `/users/${user.id}/roles/${w.identity.id}`, { as: 'god', body: { roleIds: [w.identity.roleByName.God!.id] } })).status).to.equal(200);
      // The user holds God now: nobody but God changes their access, a business role included.
      const outranked = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { as: 'manager', body: { tenantId: w.tenantA.id, roleIds: [w.crm.roleByName.Reader!.id] } });
      expect(outranked.status).to.equal(403);
      expect(outranked.body.code).to.equal('users.manage_god_only');
      expect((await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { as: 'god', body: { tenantId: w.tenantA.id, roleIds: [w.crm.roleByName.Reader!.id] } })).status).to.equal(200);
    });

    it('is refused to a TenantAdministrator and an AreaAdministrator (403)', async () => {
      for (const as of ['tenantAdmin', 'areaAdmin'] as const) {
        const put = await call(w, 'put', `/users/${user.id}/roles/${w.crm.id}`, { as, body: { tenantId: w.tenantA.id, roleIds: [w.crm.roleByName.Reader!.id] } });
        expect(put.status, as).to.equal(403);
        expect((await call(w, 'delete', `/users/${user.id}/roles/${w.crm.id}`, { as })).status, as).to.equal(403);
      }
    });

    it('removes one own badge; a badge only held through a group or an ancestor cannot be removed', async () => {
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [user] });
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Reader!, w.crm.roleByName.Writer!] });
      await grant(db(), { tenant: w.tenantA, group, roles: [w.crm.roleByName.Reader!] });
      const url = (roleId: string, tenantId = w.tenantA.id) => `/users/${user.id}/roles/${w.crm.id}?roleId=${roleId}&tenantId=${tenantId}`;

      const own = await call(w, 'delete', url(w.crm.roleByName.Writer!.id), { as: 'manager' });
      expect(own.status, JSON.stringify(own.body)).to.equal(200);
      expect(badge(own.body, 'Writer', w.tenantA.id)).to.equal(undefined);
      const [log] = await logsAbout(w, user.id);
      expect(log).to.deep.include({ operation: 'Permission', user_id: w.callers.manager.id, tenant_id: w.tenantA.id, tenant_name: w.tenantA.title });
      expect(log!.metadata).to.deep.include({ action: 'revoke', via: 'users', removed: [{ roleId: w.crm.roleByName.Writer!.id, roleName: 'Writer', applicationId: w.crm.id, applicationName: 'crm' }] });

      // Reader is held both ways: removing it takes the own grant; the group's stays.
      const both = await call(w, 'delete', url(w.crm.roleByName.Reader!.id));
      expect(badge(both.body, 'Reader', w.tenantA.id)).to.deep.include({ hierarchyType: 'ByHierarchy', removable: false });

      const inherited = await call(w, 'delete', url(w.crm.roleByName.Reader!.id));
      expect(inherited.status).to.equal(400);
      expect(inherited.body).to.include({
        code: 'users.inherited_role_not_removable',
        message: 'This role comes from a group or a parent tenant and cannot be removed here',
      });
      const absent = await call(w, 'delete', url(w.crm.roleByName.Writer!.id));
      expect(absent.status).to.equal(404);
      expect(absent.body.code).to.equal('users.role_not_granted');
    });

    it('revokes all own roles of the application when asked by a Manager, if no access is inherited', async () => {
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Reader!] });
      await grant(db(), { tenant: w.tenantB, user, roles: [w.crm.roleByName.Writer!] });
      const res = await call(w, 'delete', `/users/${user.id}/roles/${w.crm.id}`, { as: 'manager' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ hasAccess: false, byHierarchy: false });
      expect(res.body.roles).to.deep.equal([]);
      // One row per membership it changed, each going with its last role.
      const logs = await logsAbout(w, user.id);
      expect(logs.map((l) => [l.tenant_id, l.metadata.action, (l.metadata.removed as Array<{ roleName: string }>).map((r) => r.roleName), l.metadata.membershipRemoved]).sort()).to.deep.equal(
        [
          [w.tenantA.id, 'revoke', ['Reader'], true],
          [w.tenantB.id, 'revoke', ['Writer'], true],
        ].sort(),
      );
    });

    it('lets only an Administrator revoke access that is also inherited: others get "Only Admin can revoke this access"', async () => {
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [user] });
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Reader!] });
      await grant(db(), { tenant: w.tenantB, group, roles: [w.crm.roleByName.Writer!] });

      const manager = await call(w, 'delete', `/users/${user.id}/roles/${w.crm.id}`, { as: 'manager' });
      expect(manager.status).to.equal(403);
      expect(manager.body).to.include({ code: 'users.only_admin_revoke', message: 'Only Admin can revoke this access' });
      const fr = await call(w, 'delete', `/users/${user.id}/roles/${w.crm.id}`, { as: 'manager', lang: 'fr' });
      expect(fr.body.message).to.equal('Seul un administrateur peut révoquer cet accès');
      expect(badge(await crmItem(), 'Reader', w.tenantA.id)).to.not.equal(undefined);

      // The Administrator may, once the access no longer comes through the group.
      await db().query(`DELETE FROM group_members WHERE group_id = $1`, [group.id]);
      const admin = await call(w, 'delete', `/users/${user.id}/roles/${w.crm.id}`);
      expect(admin.status).to.equal(200);
      expect(admin.body).to.include({ hasAccess: false, byHierarchy: false });
    });

    it('lets an Administrator revoke access the user inherits from a parent tenant through their own membership', async () => {
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Reader!], inheritable: true });
      await grant(db(), { tenant: w.childA, user, roles: [], inheritable: true });
      expect(badge(await crmItem(), 'Reader', w.childA.id)).to.deep.include({ hierarchyType: 'ByHierarchy' });
      const res = await call(w, 'delete', `/users/${user.id}/roles/${w.crm.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ hasAccess: false, byHierarchy: false });
      expect(res.body.roles).to.deep.equal([]);
    });

    it('refuses to revoke access that comes through a group (409), naming the groups to change, and removes nothing', async () => {
      const sales = await buildGroup(db(), { areaId: w.areaA.id, name: `Sales ${randomUUID().slice(0, 8)}`, members: [user] });
      const support = await buildGroup(db(), { areaId: w.areaA.id, name: `Support ${randomUUID().slice(0, 8)}`, members: [user] });
      const unrelated = await buildGroup(db(), { areaId: w.areaA.id, members: [user] });
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Reader!] });
      await grant(db(), { tenant: w.tenantB, group: sales, roles: [w.crm.roleByName.Writer!] });
      await grant(db(), { tenant: w.tenantA, group: support, roles: [w.crm.roleByName.Reader!] });
      await grant(db(), { tenant: w.tenantA, group: unrelated, roles: [w.identity.roleByName.User!] });

      const res = await call(w, 'delete', `/users/${user.id}/roles/${w.crm.id}`);
      expect(res.status).to.equal(409);
      expect(res.body.code).to.equal('users.access_through_group');
      expect(res.body.message).to.equal(
        `Access to CRM comes through the group "${sales.name}", "${support.name}": change the roles of that group, or remove the user from it`,
      );
      expect(res.body.message).not.to.contain(unrelated.name);
      const fr = await call(w, 'delete', `/users/${user.id}/roles/${w.crm.id}`, { lang: 'fr' });
      expect(fr.body.message).to.contain(`"${sales.name}"`).and.to.match(/^L'accès à CRM vient du groupe/);
      const item = await crmItem();
      expect(badge(item, 'Reader', w.tenantA.id), 'the own grant stays').to.deep.include({ hierarchyType: 'Both' });
      // The role-access list names the same groups, so the console can say so before any call.
      expect(item.throughGroups).to.deep.equal([sales.name, support.name].sort());
      expect(await logsAbout(w, user.id)).to.deep.equal([]);
    });

    it('answers 404 for a user outside an AreaAdministrator’s areas and for a malformed id', async () => {
      const other = await userIn(w, w.areaB);
      for (const path of ['roles', 'tenants', 'groups']) {
        expect((await call(w, 'get', `/users/${other.id}/${path}`, { as: 'areaAdmin' })).status, path).to.equal(404);
        expect((await call(w, 'get', `/users/x-1/${path}`)).status, path).to.equal(404);
      }
      expect((await call(w, 'get', `/users/${user.id}/roles`, { as: 'areaAdmin' })).status).to.equal(200);
    });
  });
});
