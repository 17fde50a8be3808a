import { writeSystemLog, type AppContext } from '@gatehouse/core';
import { exportConfiguration } from '@gatehouse/core/bootstrap';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { findUserName } from '../directory/lookups.js';

export interface ConfigurationFile {
  fileName: string;
  yaml: string;
}

/** The deployment's configuration as a bootstrap file, for God (the file a launcher's `--export-config` writes). */
export class ConfigurationService {
  constructor(
    private readonly context: AppContext,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The file, named after today's date; who exported it goes to the system log (the secrets it references are never in it). */
  async export(caller: Caller): Promise<ConfigurationFile> {
    const { dataSource, config } = this.context;
    const { yaml, variables } = await exportConfiguration(dataSource, { publicUrl: config.server.publicUrl });
    await writeSystemLog(dataSource, {
      operation: 'ExportConfiguration',
      userId: caller.userId,
      userName: await findUserName(dataSource, caller.userId),
      metadata: { variables: variables.map((variable) => variable.name) },
    });
    return { fileName: `gatehouse-configuration-${this.now().toISOString().slice(0, 10)}.yaml`, yaml };
  }
}
