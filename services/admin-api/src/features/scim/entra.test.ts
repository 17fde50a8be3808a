// Microsoft Entra ID's provisioning sequence, from the request shapes Microsoft documents for a SCIM
// endpoint ("Develop and plan provisioning for a SCIM endpoint"): the user matched by userName,
// created with the enterprise extension, `roles: []` and `meta`; patched with "Replace" (capitalised),
// value paths, `active` as "False", and without a path; groups sent with Microsoft's own schema URN,
// members added and removed with `"$ref": null`; then deactivated and deleted.
import { randomBytes } from 'node:crypto';
import { buildApplication } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { buildAdminWorld, call, type AdminWorld } from '../../testing/admin-world.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const MICROSOFT_GROUP = 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('SCIM: Microsoft Entra ID’s provisioning sequence', function () {
  this.timeout(60_000);
  let w: AdminWorld;
  let token: string;
  const scim = (method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
    request(w.server)[method](`/scim/v2${path}`).set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/scim+json');

  before(async () => {
    w = await buildAdminWorld();
    const app = await buildApplication(w.context.dataSource, { name: `entra-${randomBytes(3).toString('hex')}`, displayName: 'Entra provisioning' });
    const issued = await call(w, 'post', `/applications/${app.id}/scimTokens`, { body: { name: 'Entra', areaId: w.areaA.id } });
    token = issued.body.token;
  });

  it('matches, creates, updates, deactivates and deletes a user, and fills a group', async () => {
    const upn = `Test_User_${randomBytes(4).toString('hex')}@contoso.example`;
    // 1. Entra looks the user up by its matching attribute: none yet.
    const lookup = await scim('get', `/Users?filter=${encodeURIComponent(`userName eq "${upn}"`)}`);
    expect(lookup.status).to.equal(200);
    expect(lookup.body).to.deep.include({ totalResults: 0, Resources: [] });

    // 2. Create User.
    const created = await scim('post', '/Users').send({
      schemas: [USER, ENTERPRISE],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: upn,
      active: true,
      emails: [{ primary: true, type: 'work', value: upn.toLowerCase() }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
      [ENTERPRISE]: { department: 'Sales', employeeNumber: '1001' },
    });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id as string;
    expect(created.body[ENTERPRISE]).to.deep.equal({ department: 'Sales', employeeNumber: '1001' });

    // 3. The lookup finds it now; GET by id.
    expect((await scim('get', `/Users?filter=${encodeURIComponent(`userName eq "${upn}"`)}`)).body.totalResults).to.equal(1);
    expect((await scim('get', `/Users/${id}`)).body.externalId).to.equal('0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef');

    // 4. Update User [multi-valued properties].
    const multi = await scim('patch', `/Users/${id}`).send({
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@contoso.example' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ],
    });
    expect(multi.status, multi.text).to.equal(200);
    const [row] = await w.context.dataSource.query('SELECT email, last_name FROM users WHERE id = $1', [id]);
    expect(row).to.deep.equal({ email: 'updatedEmail@contoso.example', last_name: 'updatedFamilyName' });

    // 5. Update User [single-valued properties]: the user principal name changed.
    const renamed = `Renamed_${upn}`;
    const single = await scim('patch', `/Users/${id}`).send({ schemas: [PATCH], Operations: [{ op: 'Replace', path: 'userName', value: renamed }] });
    expect(single.status, single.text).to.equal(200);
    expect(single.body.userName).to.equal(renamed);

    // 6. A manager, sent as its id alone; and attributes without a path.
    const manager = (
      await scim('post', '/Users').send({ schemas: [USER], userName: `Manager_${upn}`, name: { givenName: 'Mia', familyName: 'Manager' }, emails: [{ primary: true, type: 'work', value: `manager.${upn}` }] })
    ).body;
    const managed = await scim('patch', `/Users/${id}`).send({
      schemas: [PATCH],
      Operations: [
        { op: 'Add', path: `${ENTERPRISE}:manager`, value: manager.id },
        { op: 'Replace', value: { displayName: 'Given Family', 'name.givenName': 'Given' } },
      ],
    });
    expect(managed.status, managed.text).to.equal(200);
    expect(managed.body[ENTERPRISE].manager).to.deep.include({ value: manager.id, displayName: 'Mia Manager' });
    expect(managed.body).to.deep.include({ displayName: 'Given Family' });
    expect(managed.body.name.givenName).to.equal('Given');

    // 7. A group with Microsoft's schema URN, looked up by displayName without its members, then filled and emptied.
    const groupName = `Entra group ${randomBytes(3).toString('hex')}`;
    expect((await scim('get', `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`displayName eq "${groupName}"`)}`)).body.totalResults).to.equal(0);
    const group = await scim('post', '/Groups').send({ schemas: [GROUP, MICROSOFT_GROUP], externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: groupName, meta: { resourceType: 'Group' } });
    expect(group.status, group.text).to.equal(201);
    const groupId = group.body.id as string;
    const found = await scim('get', `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`displayName eq "${groupName}"`)}`);
    expect(found.body.Resources.map((g: { id: string }) => g.id)).to.deep.equal([groupId]);
    expect(found.body.Resources[0]).not.to.have.property('members');
    const add = await scim('patch', `/Groups/${groupId}`).send({ schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: id }, { $ref: null, value: manager.id }] }] });
    expect(add.status, add.text).to.equal(200);
    expect((await scim('get', `/Groups/${groupId}`)).body.members.map((m: { value: string }) => m.value).sort()).to.deep.equal([id, manager.id].sort());
    const renameGroup = await scim('patch', `/Groups/${groupId}`).send({ schemas: [PATCH], Operations: [{ op: 'Replace', path: 'displayName', value: `${groupName} updatedDisplayName` }] });
    expect(renameGroup.body.displayName).to.equal(`${groupName} updatedDisplayName`);
    const remove = await scim('patch', `/Groups/${groupId}`).send({ schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: manager.id }] }] });
    expect(remove.status, remove.text).to.equal(200);
    expect((await scim('get', `/Groups/${groupId}`)).body.members.map((m: { value: string }) => m.value)).to.deep.equal([id]);

    // 8. Deactivate: "False" as a string, then a path-less replace to turn it back and off again.
    const off = await scim('patch', `/Users/${id}`).send({ schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(off.body.active).to.equal(false);
    expect((await w.context.dataSource.query('SELECT locked FROM users WHERE id = $1', [id]))[0].locked).to.equal(true);
    const on = await scim('patch', `/Users/${id}`).send({ schemas: [PATCH], Operations: [{ op: 'Replace', value: { active: true } }] });
    expect(on.body.active).to.equal(true);

    // 9. Delete the group and the users.
    expect((await scim('delete', `/Groups/${groupId}`)).status).to.equal(204);
    expect((await scim('delete', `/Users/${id}`)).status).to.equal(204);
    expect((await scim('delete', `/Users/${manager.id}`)).status).to.equal(204);
    expect((await scim('get', `/Users?filter=${encodeURIComponent(`userName eq "${renamed}"`)}`)).body.totalResults).to.equal(0);
  });
});
