import type { Readable } from 'node:stream';
import { AppError, type AppContext, type Logger } from '@gatehouse/core';
import {
  findAcceptedDisclaimers,
  findFavouriteApplications,
  findGroups,
  findLinkedAccounts,
  findMemberships,
  findProfile,
  findRecentSignIns,
  findRightsRequests,
} from './repository.js';
import { myDataWorkbook, type MyData } from './workbook.js';

/** The "My data" download: its file name in the reader's language, and its bytes. */
export interface MyDataFile {
  fileName: string;
  body: Readable;
}

/** "My data": everything the product keeps about the signed-in user, and nothing about anyone else. */
export class MyDataService {
  constructor(private readonly context: AppContext) {}

  /**
   * The workbook of `accountId`'s data, in `language` (the caller's Accept-Language), else in the
   * user's preferred language. Every query is keyed by the user's own id.
   */
  async download(accountId: string, language: string | undefined, log?: Logger): Promise<MyDataFile> {
    const db = this.context.dataSource;
    const profile = await findProfile(db, accountId);
    if (!profile) throw new AppError('errors.unauthorized', 401);
    const [linkedAccounts, favourites, memberships, groups, disclaimers, signIns, rightsRequests] = await Promise.all([
      findLinkedAccounts(db, accountId),
      findFavouriteApplications(db, accountId),
      findMemberships(db, accountId),
      findGroups(db, accountId),
      findAcceptedDisclaimers(db, accountId),
      findRecentSignIns(db, accountId),
      findRightsRequests(db, accountId),
    ]);
    const data: MyData = { profile, linkedAccounts, favourites, memberships, groups, disclaimers, signIns, rightsRequests };
    const lng = language ?? profile.language;
    return {
      fileName: this.context.i18n.t('myData.file_name', { lng }) as string,
      body: myDataWorkbook(this.context, data, lng, log),
    };
  }
}
