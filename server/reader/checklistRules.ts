import { and, asc, gt, isNotNull } from 'drizzle-orm';
import { checklistRulesErrors, itemKeyOf, type ChecklistRule } from '../../domain/checklist';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import { applications, checklistRules } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { currentChecklistRules, PORTAL_ACTOR, refreshChecklist } from '../office/checklist';
import { HttpError } from '../http/errors';

type ChecklistRules = components['schemas']['ChecklistRules'];


const asContract = (current: Awaited<ReturnType<typeof currentChecklistRules>>): ChecklistRules => ({
  version: current.version,
  rules: current.rules.map((rule) => ({
    key: rule.key,
    label: rule.label,
    from: rule.from,
    document_key: rule.documentKey ?? null,
    when: rule.when.map((condition) => ({ question: condition.valueKey, equals: String(condition.target) })),
  })),
  updated_by: current.by,
  updated_at: current.at?.toISOString() ?? null,
});

/** Every submitted application's checklist computed again after a change of rules, 250 at a time in id order. */
async function refreshAllChecklists(db: Db): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let done = 0;
  for (;;) {
    const batch = await db
      .select({ userId: applications.userId })
      .from(applications)
      .where(and(isNotNull(applications.submittedAt), gt(applications.userId, after)))
      .orderBy(asc(applications.userId))
      .limit(250);
    for (const { userId } of batch) await refreshChecklist(db, userId, PORTAL_ACTOR);
    done += batch.length;
    if (batch.length < 250) return done;
    after = batch.at(-1)!.userId;
  }
}

export async function registerChecklistRefreshWorker(jobs: Jobs, db: Db): Promise<void> {
  await jobs.work('checklist-refresh', () => refreshAllChecklists(db).then(() => undefined));
}

export function checklistRuleHandlers(deps: { db: Db; jobs: Jobs }) {
  const { db } = deps;
  return {
    // The rules only, no applicant's data: not in the audit log.
    getChecklistRules: staffCall<'getChecklistRules'>('reader', async (_request, reply) => reply.code(200).send(asContract(await currentChecklistRules(db)))),

    setChecklistRules: staffCall<'setChecklistRules'>('admin', async (request, reply, staff) => {
      const taken = new Set(request.body.rules.flatMap((rule) => (rule.key ? [rule.key] : [])));
      const rules: ChecklistRule[] = request.body.rules.map((rule) => {
        const key = rule.key ?? itemKeyOf(rule.label, taken);
        taken.add(key);
        return {
          key,
          label: rule.label.trim(),
          from: rule.from,
          ...(rule.from === 'form' ? { documentKey: rule.document_key ?? '' } : {}),
          when: rule.when.map((condition) => ({ valueKey: condition.question, operator: 'equals' as const, target: condition.equals })),
        };
      });
      const errors = checklistRulesErrors(rules);
      if (new Set(rules.map((rule) => rule.key)).size !== rules.length) (errors.rules ??= []).push('Each item needs a key of its own.');
      if (Object.keys(errors).length) throw new HttpError(400, 'Please check the highlighted fields.', { errors });
      const version = await db.transaction(async (tx) => {
        const [row] = await tx.insert(checklistRules).values({ definition: rules, createdByEmail: staff.email, createdAt: clock.now() }).returning({ version: checklistRules.version });
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'checklist_rules_change', detail: { version: row!.version, items: rules.map((rule) => rule.key) }, ip: request.ip });
        return row!.version;
      });
      await deps.jobs.send('checklist-refresh', { version: String(version) });
      return reply.code(200).send(asContract(await currentChecklistRules(db)));
    }),
  } satisfies Handlers;
}
