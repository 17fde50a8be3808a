import { toListQuery, type AppContext } from '@gatehouse/core';
import type { AreaList, areasRoutes } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { CallerScope } from '../../auth/scope.js';
import { AREA_SORT, listAreas } from './repository.js';

type AreaListQuery = z.output<typeof areasRoutes.list.query>;

/** The areas, read-only. */
export class AreasService {
  constructor(private readonly context: AppContext) {}

  /** A page of the areas; an area administrator sees only theirs (the users and groups they may touch live there). */
  async list(query: AreaListQuery, scope: CallerScope): Promise<AreaList> {
    const { rows, count } = await listAreas(this.context.dataSource, toListQuery(query, AREA_SORT), scope.areaIds);
    return { items: rows.map((r) => ({ id: r.id, name: r.name, default: r.is_default, system: r.is_system })), count };
  }
}
