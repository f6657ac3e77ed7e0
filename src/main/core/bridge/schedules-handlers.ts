/**
 * Handlers of the `schedules:*` calls (the Schedules page, docs/scheduler.md): thin adapters over the scheduler's
 * `Schedules`, plus the permission envelope of a job: the allow and deny rules that apply to its runs (those of its
 * permission group and of `default`, for their source and agent, as the gate takes them), the run context's file
 * fast-path (folders read or written without asking), and the agent's own tool narrowing. Everything not allowed
 * waits for the person in the Inbox. The allow list leaves out the session tools a run's agent is never offered
 * (`execute_task`, `show_file_to_user`, `read_notification`, …: docs/agents.md), so the envelope names only what a
 * run could do. An unknown job or run is `not_found`; a job that is already running is `busy`.
 */
import { resolve } from 'node:path';
import { BridgeError } from '../../../shared/contract/define';
import { RunContextSchema } from '../../../shared/run-context';
import type { AgentRegistry } from '../agents/agent-registry';
import { interfaceToolNames } from '../agents/tool-sets';
import { isSyntheticTool } from '../session/synthetic-tools';
import type { ApprovalRuleDto as ApprovalRule } from '../../../shared/contract/approval';
import type { SchedulerServices } from '../scheduler/index';
import type { BridgeHandlers } from './handlers';

type SchedulesChannels =
  | 'schedules:list'
  | 'schedules:runs'
  | 'schedules:envelope'
  | 'schedules:setEnabled'
  | 'schedules:delete'
  | 'schedules:runNow'
  | 'schedules:stopRun'
  | 'schedules:runOfSession';

export interface SchedulesHandlerDeps {
  scheduler: SchedulerServices;
  agents: AgentRegistry;
  rules: { listRules(groupId?: string): ApprovalRule[]; getGroup(id: string): { name: string } | null };
  workspaceDir: string;
}

const orThrow = <T>(result: T | { error: string }, code = 'not_found'): T => {
  if (result && typeof result === 'object' && 'error' in result) throw new BridgeError(code, result.error);
  return result as T;
};

export function createSchedulesHandlers(deps: SchedulesHandlerDeps): Pick<BridgeHandlers, SchedulesChannels> {
  const { schedules, jobs } = deps.scheduler;
  const job = (jobId: number) => {
    const row = jobs.get(jobId);
    if (!row) throw new BridgeError('not_found', `There is no job ${jobId}.`);
    return row;
  };
  return {
    'schedules:list': () => ({ jobs: schedules.list('cron'), tasks: schedules.list('async') }),
    'schedules:runs': ({ jobId, limit }) => ({ runs: orThrow(schedules.runs(jobId, limit)) }),
    'schedules:envelope': ({ jobId }) => {
      const view = schedules.view(job(jobId));
      const source = view.kind === 'cron' ? 'cron' : 'task';
      const applies = (r: ApprovalRule) =>
        (r.source === null || r.source === source) && (r.agent_id === null || r.agent_id === view.agent_id);
      const groups = view.permission_group === 'default' ? ['default'] : [view.permission_group, 'default'];
      const rules = groups.flatMap((g) => deps.rules.listRules(g)).filter(applies);
      const parsed = RunContextSchema.safeParse(job(jobId).run_context ? JSON.parse(job(jobId).run_context!) : {});
      const rc = parsed.success ? parsed.data : RunContextSchema.parse({});
      const wd = view.working_directory ?? deps.workspaceDir;
      const abs = (p: string) => resolve(wd, p);
      const line = (r: ApprovalRule) => ({
        tool_pattern: r.tool_pattern,
        path_pattern: r.path_pattern,
        command_pattern: r.command_pattern,
        note: r.note,
      });
      const agent = deps.agents.get(view.agent_id);
      // What a run's own agent is offered of the session tools (it runs at depth 0 of a background session).
      const runTools = new Set(
        interfaceToolNames({
          sessionId: 0,
          stackId: null,
          depth: 0,
          agentId: view.agent_id,
          agentName: '',
          agentType: 'error' in agent ? 'task' : agent.type,
          interactive: false,
          toolAllowList: null,
        }),
      );
      const reachable = (r: ApprovalRule) => !isSyntheticTool(r.tool_pattern) || runTools.has(r.tool_pattern);
      return {
        permission_group: view.permission_group,
        group_name:
          deps.rules.getGroup(view.permission_group)?.name ?? `${view.permission_group} (missing: every call asks)`,
        agent_id: view.agent_id,
        agent_name: 'error' in agent ? view.agent_id : agent.name,
        agent_tools: 'error' in agent ? null : agent.tools,
        allowed: rules.filter((r) => r.action === 'allow' && reachable(r)).map(line),
        denied: rules.filter((r) => r.action === 'deny').map(line),
        working_directory: wd,
        reads_in: [
          ...new Set([
            wd,
            abs('docs'),
            abs('skills'),
            ...(rc.allow_fs_reads ?? []).map(abs),
            ...(rc.allow_fs_writes ?? []).map(abs),
          ]),
        ],
        writes_in: (rc.allow_fs_writes ?? []).map(abs),
      };
    },
    'schedules:setEnabled': ({ jobId, enabled }) => {
      job(jobId);
      return { job: orThrow(schedules.setEnabled(jobId, enabled), 'bad_request') };
    },
    'schedules:delete': async ({ jobId }) => {
      job(jobId);
      orThrow(await schedules.delete(jobId));
      return { ok: true as const };
    },
    'schedules:runNow': ({ jobId }) => {
      job(jobId);
      return orThrow(schedules.runNow(jobId), 'busy');
    },
    'schedules:stopRun': ({ runId }) => orThrow(schedules.stopRun(runId)),
    'schedules:runOfSession': ({ sessionId }) => {
      const run = jobs.runOfSession(sessionId);
      const owner = run ? jobs.get(run.job_id) : undefined;
      return {
        run:
          run && owner
            ? { job_id: owner.id, job_title: owner.title, kind: owner.kind, run: schedules.runView(run) }
            : null,
      };
    },
  };
}
