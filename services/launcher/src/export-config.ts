import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createContext, migrate, type Config, type Logger } from '@gatehouse/core';
import { exportConfiguration, type ExportedVariable } from '@gatehouse/core/bootstrap';

/**
 * `npm run config:export [-- <file>]`: the deployment's configuration as a bootstrap file, written
 * to `file` or to the standard output (what else it says goes to the standard error, so the output
 * can be redirected to a file). Works beside a running server. Answers the variables the file's
 * import needs.
 */
export async function exportConfigurationCommand(
  config: Config,
  options: { file?: string; logger: Logger; stdout?: NodeJS.WritableStream; stderr?: NodeJS.WritableStream },
): Promise<ExportedVariable[]> {
  const { stdout = process.stdout, stderr = process.stderr } = options;
  const context = await createContext({ ...config, database: { ...config.database, poolSize: 1 } }, { logger: options.logger });
  try {
    await migrate(context.dataSource);
    const { yaml, variables } = await exportConfiguration(context.dataSource, { publicUrl: config.server.publicUrl });
    if (options.file) await writeFile(path.resolve(options.file), yaml);
    else stdout.write(yaml);
    const needs = variables.length ? `; its import needs ${variables.map((variable) => variable.name).join(', ')} (see its header)` : '';
    stderr.write(`Configuration exported${options.file ? ` to ${options.file}` : ''}${needs}\n`);
    return variables;
  } finally {
    await context.close();
  }
}
