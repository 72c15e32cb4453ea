import { existsSync } from 'node:fs';
import { loadPhoneLibrary } from './infra/phones';
import path from 'node:path';
import Fastify, { errorCodes, LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type preValidationHookHandler, type RouteHandlerMethod } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import openapiGlue from 'fastify-openapi-glue';
import secureJson from 'secure-json-parse';
import { answerClientError } from './http/clientError';
import { answeredOnlyTypes, loadContract, splitContract, type Contract } from './http/contract';
import { isServerCall } from './http/paths';
import { clientPages, inlineScriptSources } from './http/clientPage';
import { buildValidatorWithAnswersCheck } from './http/answersValidator';
import { sendHtml } from './http/compressedHtml';
import { DEFAULT_DRAW_LIMITS, drawBudget, eventLoopWatch, type DrawLimits } from './http/drawBudget';
import { SERVER_RENDER_DIR, signedInPages } from './http/signedInPage';
import { CALL_HEADERS, redactUrl, registerSecurity } from './http/security';
import type { Config } from './infra/config';
import type { Database } from './infra/db';
import { createMetrics, type Metrics } from './infra/metrics';
import { accountHandlers } from './accounts/handlers';
import { registerSessionAuth } from './accounts/sessions';
import { anonymousHandlers } from './application/anonymous';
import { answerHandlers } from './application/answers';
import { profileHandlers } from './application/profile';
import { submissionHandlers } from './application/submission';
import { MAX_FILE_BYTES } from '../domain/config';
import { GENERIC_ERROR_MESSAGE, SESSION_INVALID_MESSAGE } from '../domain/messages';
import { staffMessages } from '../domain/staff';
import { HttpError } from './http/errors';
import type { Handlers, OperationId } from './http/handler';
import { documentHandlers, registerDocumentWorker } from './documents/documents';
import { pdfCopyHandlers, registerPdfCopyWorker, requestPdfCopy } from './pdf/pdfCopy';
import { createStorage, type Storage } from './infra/storage';
import { uploadHandler } from './documents/upload';
import { requeueStuckJobsNowAndThen } from './infra/stuckJobs';
import { clock, TEST_CLOCK_HEADER } from './infra/clock';
import { closeBrowsers } from './infra/browser';
import { clientErrorHandlers, healthHandlers } from './infra/health';
import { UNAVAILABLE_RETRY_SECONDS, unavailableMessages, unavailableReason } from './infra/unavailable';
import { lookupHandlers } from './lookup/handlers';
import { startJobs, type Jobs } from './infra/jobs';
import { serviceHandlers, serviceMessages } from './service/serviceView';
import { createMailer, readOutbox, type Mailer } from './infra/mail';
import { staffAccountHandlers } from './staff/accounts';
import { staffApplicationHandlers } from './reader/applications';
import { noteHandlers } from './reader/notes';
import { reviewHandlers } from './reader/reviews';
import { registerScoresWorker, scoreHandlers } from './reader/scores';
import { committeeHandlers } from './reader/committee';
import { savedViewHandlers } from './reader/savedViews';
import { reportHandlers } from './reader/reports';
import { workflowHandlers } from './reader/workflow';
import { recommenderHandlers } from './recommenders/recommenders';
import { checklistRuleHandlers, registerChecklistRefreshWorker } from './reader/checklistRules';
import { exportTemplateHandlers, registerExportWorker } from './exports/templates';
import { correctionHandlers } from './reader/corrections';
import { withdrawalHandlers } from './reader/withdrawal';
import { duplicateHandlers } from './reader/duplicates';
import { oidcHandlers } from './staff/oidc';
import { recordHandlers, retentionNowAndThen } from './records/handlers';
import { machineHandlers, machineMessages, registerMachineAuth } from './exports/machine';
import { registerRefusalRecord } from './office/refusals';
import { exportScheduleNowAndThen } from './exports/schedule';
import { withdrawRunsCarrying } from './exports/withdraw';
import { reminderHandlers, remindNowAndThen } from './recommenders/reminders';
import { checklistHandlers, registerMaterialWorker } from './reader/checklist';
import { PORTAL_ACTOR, refreshChecklist } from './office/checklist';
import { decisionHandlers, staffDecisionOfApplication } from './decisions/decisions';
import { registerNoticeWorker, sendDueNotices } from './decisions/notices';
import { letterPdfHandlers, registerLetterWorker } from './decisions/letterPdf';
import { applicantDecisionHandlers } from './decisions/status';
import { letterHandlers } from './decisions/letters';
import { replyDateHandlers } from './decisions/replyDates';
import { conflictHandlers, registerConflictGuard } from './office/conflicts';
import { auditHandlers } from './office/audit';
import { exportHandlers } from './staff/export';
import { registerStaffAuth } from './office/sessions';


const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export interface AppDeps {
  config: Pick<
    Config,
    | 'oidc'
    | 'clientDir'
    | 'nodeEnv'
    | 'publicUrl'
    | 'sessionSecret'
    | 'smtpUrl'
    | 'mailFrom'
    | 'rateLimitScale'
    | 's3'
    | 'dataDir'
    | 'chromiumPath'
    | 'inProcessWorker'
    | 'trustProxy'
    | 'drawLagLimitMs'
  >;
  database: Database;
  mailer?: Mailer;
  /** Logging on (to stdout, or to `stream`), or off. */
  logger?: boolean | { stream: { write(line: string): void } };
  /** Seams for the fault tests: a storage that fails as a full disk does, a data folder that reads as full. */
  faults?: { storage?: (real: Storage) => Storage; freeBytes?: (folder: string) => Promise<number | null> };
  /** Drawn pages' limits other than the defaults (tests slow a session's refill to count without a clock). */
  drawLimits?: Partial<DrawLimits>;
  /** Where this app counts what an operator watches (main.ts serves it on a port of its own); a registry of its own when not given. */
  metrics?: Metrics;
}

export interface WorkerDeps {
  db: Database['db'];
  storage: Storage;
  jobs: Jobs;
  chromiumPath: string;
  mailer: Mailer;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'error'>;
  /**
   * This process is the only one that can have been working (the embedded database): every job
   * still in progress at start was cut off and is queued again at once, not after STUCK_AFTER_MS.
   */
  onlyProcess: boolean;
}

/**
 * Every job's handler and every now-and-then task, registered here at the root for the web process
 * (IN_PROCESS_WORKER) and for `npm run worker` alike: each area gives its handler, none registers another's.
 * `stopNotices` ends a run of notices at its current mail (before the jobs stop); `stopTimers` the rest.
 */
export async function startWorkers(deps: WorkerDeps): Promise<{ stopNotices: () => void; stopTimers: () => void }> {
  const { db, storage, jobs } = deps;
  const log = (error: unknown, message: string) => deps.log.error(error, message);
  await registerDocumentWorker(jobs, deps);
  await registerPdfCopyWorker(jobs, deps);
  await registerLetterWorker(jobs, deps);
  await registerMaterialWorker(jobs, deps);
  await registerChecklistRefreshWorker(jobs, db);
  await registerScoresWorker(jobs, db);
  await registerExportWorker(jobs, { db, storage });
  const noticeDeps = { db, mailer: deps.mailer, publicUrl: deps.publicUrl, log };
  const stopNotices = await registerNoticeWorker(jobs, noticeDeps);
  // Jobs a crash left half done are queued again.
  const timers = [
    requeueStuckJobsNowAndThen({ db, jobs }, (error) => log(error, 'requeue of stuck jobs failed'), { onlyProcess: deps.onlyProcess }),
    exportScheduleNowAndThen({ db, jobs, log }),
    retentionNowAndThen({ db, storage, withdrawRunsCarrying, log }),
    remindNowAndThen(noticeDeps),
  ];
  return { stopNotices, stopTimers: () => timers.forEach((stop) => stop()) };
}

/**
 * The contract's `security:` enforced by the glue (issue 50): each operation's scheme must have
 * been met before its handler runs. The sessions themselves are read earlier, by the hooks of
 * their paths (an anonymous caller is refused there, before any validation); these check that the
 * session the contract names is the one the request holds, so an operation the contract guards
 * is never reached without it, whatever its path.
 */
export const contractSecurity = {
  cookieAuth: (request: FastifyRequest) => {
    if (!request.session) throw new HttpError(401, SESSION_INVALID_MESSAGE);
  },
  staffCookie: (request: FastifyRequest) => {
    if (!request.staff) throw new HttpError(401, staffMessages.sessionEnded);
  },
  machineKey: (request: FastifyRequest) => {
    if (!request.machine) throw new HttpError(401, machineMessages.keyInvalid, { headers: { 'www-authenticate': 'Bearer' } });
  },
  serviceToken: (request: FastifyRequest) => {
    const { service_token: token } = (request.query ?? {}) as { service_token?: unknown };
    if (typeof token !== 'string' || token === '') throw new HttpError(401, serviceMessages.invalidToken);
  },
};

/** The glue wraps what a scheme's check threw (`contractSecurity`) in its own error: the refusal inside, answered as it is. */
export function schemeRefusal(error: Error): HttpError | undefined {
  return error.name === 'Unauthorized' && 'errors' in error && Array.isArray(error.errors) ? error.errors.find((each): each is HttpError => each instanceof HttpError) : undefined;
}

/** pino's level numbers ('silent' and unknown levels write nothing). */
const LOG_LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/**
 * A developer at a terminal reads lines (time, level, message), not JSON: pino-pretty, in a thread
 * of its own. Production, tests and any log piped elsewhere stay JSON, one object a line.
 */
export function readableLogs(nodeEnv: string, terminal: boolean | undefined): { transport?: { target: string; options: Record<string, unknown> } } {
  return nodeEnv === 'development' && terminal ? { transport: { target: import.meta.resolve('pino-pretty'), options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {};
}

export async function buildApp({ config, database, mailer: givenMailer, logger = false, faults = {}, drawLimits = {}, metrics = createMetrics(database) }: AppDeps): Promise<FastifyInstance> {
  // Numbers from abroad are checked (at submit) and shown (the PDF copy) with every country's plan.
  loadPhoneLibrary();
  const app = Fastify({
    // A number is a count of proxies in front: trust that many hops of X-Forwarded-For.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Request lines are logged without their query tokens (a service token, a restore link's
    // token): a log must never hand anyone an applicant's answers.
    logger: logger
      ? {
          level: 'info',
          ...(typeof logger === 'object' ? { stream: logger.stream } : readableLogs(config.nodeEnv, process.stdout.isTTY)),
          serializers: { req: (request: FastifyRequest) => ({ method: request.method, url: redactUrl(request.url), id: request.id }) },
        }
      : false,
    // One line per request, written when it is answered (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 2 * 1024 * 1024,
    // Refused by Node's parser before any route (431 headers over the limit): the contract's Error body.
    clientErrorHandler: answerClientError,
    // The router's own refusals (a URL it cannot decode, a path part over 100 characters) come
    // before any hook: answered here as the contract's 400, with a call's headers.
    frameworkErrors: (_error, _request, reply: FastifyReply) =>
      reply
        .code(400)
        .headers(CALL_HEADERS)
        .send({ message: 'The address of this request cannot be read.' }),
    // Report every problem at once and refuse unknown fields rather than silently dropping them.
    // Query strings still need type coercion ('5' → 5), which is Fastify's default.
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: true, strict: false } },
    // Fastify's own validator, with a one-pass check before it for a save's answers.
    schemaController: { compilersFactory: { buildValidator: buildValidatorWithAnswersCheck } },
  });

  // A test server only: each browser test's requests read the clock it moves (server/infra/clock.ts).
  // First of all hooks, so that every later one runs on that clock.
  if (config.nodeEnv === 'test') {
    app.addHook('onRequest', (request, _reply, done) => {
      const name = request.headers[TEST_CLOCK_HEADER];
      if (typeof name === 'string' && name !== '') clock.runOn(name, done);
      else done();
    });
  }
  await app.register(fastifyCookie);
  registerSecurity(app, config.publicUrl, inlineScriptSources(config.clientDir));
  // In production one line per request at info (method, path without tokens, status, time); while
  // developing it is a debug line, so the log shows what the developer logs.
  const requestLevel = config.nodeEnv === 'production' ? 'info' : 'debug';
  // Callbacks, not async, as every hook each request passes (server/http/hookFor.ts).
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(operationOf(request), request.method, reply.statusCode, reply.elapsedTime / 1000);
    // Checked first: the line's fields are not built for a level that writes nothing.
    if ((LOG_LEVELS[request.log.level] ?? Infinity) <= LOG_LEVELS[requestLevel]!) {
      request.log[requestLevel]({ method: request.method, url: redactUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    }
    done();
  });
  const { db } = database;
  const mailer = givenMailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db, log: (line) => app.log.info(line) });
  await registerSessionAuth(app, database, config.publicUrl);
  registerStaffAuth(app, db, config.publicUrl);
  registerMachineAuth(app, db);
  registerRefusalRecord(app, db);
  registerConflictGuard(app, db);

  const storage = faults.storage ? faults.storage(createStorage(config)) : createStorage(config);
  const jobs = await startJobs(database, (message, error) => app.log.error(error, message), undefined, metrics);
  app.addHook('onClose', () => jobs.stop());
  app.addHook('onClose', () => closeBrowsers());
  const jobDeps = { db, storage, jobs, chromiumPath: config.chromiumPath, log: app.log };
  const noticeDeps = { db, mailer, publicUrl: config.publicUrl, log: (error: unknown, message: string) => app.log.error(error, message) };
  if (config.inProcessWorker) {
    const workers = await startWorkers({ ...jobDeps, mailer, publicUrl: config.publicUrl, onlyProcess: database.kind === 'pglite' });
    // Before the onClose hooks (the jobs' stop among them): a run of notices ends at its current mail.
    app.addHook('preClose', async () => workers.stopNotices());
    app.addHook('onClose', async () => workers.stopTimers());
  }

  const handlers: Handlers = {
    ...healthHandlers({ database, chromiumPath: config.chromiumPath, dataDir: config.dataDir, freeBytes: faults.freeBytes }),
    ...clientErrorHandlers({ db, log: app.log, rateLimitScale: config.rateLimitScale }),
    ...accountHandlers({ db, mailer, secret: config.sessionSecret, publicUrl: config.publicUrl, rateLimitScale: config.rateLimitScale, log: app.log }),
    ...profileHandlers(db),
    ...answerHandlers(db),
    ...submissionHandlers(db, async (userId) => {
      await requestPdfCopy(jobDeps, userId);
      // What the submitted application still needs, stored for the list's filters (issue 31). The
      // submission stands if this fails: the worker's start fills in any left unstored.
      await refreshChecklist(db, userId, PORTAL_ACTOR).catch((error: unknown) => app.log.error(error, 'checklist after submission failed'));
    }),
    ...documentHandlers(jobDeps),
    ...pdfCopyHandlers({ ...jobDeps, rateLimitScale: config.rateLimitScale }),
    ...serviceHandlers(db),
    ...lookupHandlers({ db, rateLimitScale: config.rateLimitScale }),
    uploadDocument: uploadHandler(storage, config.sessionSecret),
    ...staffAccountHandlers({ db, sessionSecret: config.sessionSecret, publicUrl: config.publicUrl, rateLimitScale: config.rateLimitScale }),
    ...staffApplicationHandlers({ db, storage, decisionOf: (userId) => staffDecisionOfApplication(db, userId), requestPdfCopy: (userId) => requestPdfCopy(jobDeps, userId) }),
    ...noteHandlers(db),
    ...correctionHandlers(db),
    ...withdrawalHandlers(db),
    ...duplicateHandlers(db),
    ...oidcHandlers({ db, config }),
    ...recordHandlers({ db, storage, withdrawRunsCarrying, log: (error, message) => app.log.error(error, message) }),
    ...reviewHandlers(db),
    ...workflowHandlers(db),
    ...checklistHandlers(jobDeps),
    ...recommenderHandlers({ ...jobDeps, mailer, publicUrl: config.publicUrl, rateLimitScale: config.rateLimitScale }),
    ...reminderHandlers(db),
    ...checklistRuleHandlers({ db, jobs }),
    ...scoreHandlers({ db, jobs }),
    ...committeeHandlers(db),
    ...savedViewHandlers(db),
    ...reportHandlers(db),
    ...decisionHandlers({ db, jobs }),
    ...applicantDecisionHandlers(db),
    ...letterPdfHandlers({ db, storage, jobs }),
    ...letterHandlers(db),
    ...replyDateHandlers(db),
    ...conflictHandlers(db),
    ...auditHandlers(db),
    ...exportHandlers(db),
    ...exportTemplateHandlers({ db, jobs, storage }),
    ...machineHandlers({ db, storage }),
    ...anonymousHandlers({ db, mailer, publicUrl: config.publicUrl, rateLimitScale: config.rateLimitScale, log: app.log }),
    getDevOutbox: async (request, reply) => {
      // Outside production only: in production the outbox does not exist for callers.
      if (config.nodeEnv === 'production') throw new HttpError(404, 'We could not find that.');
      const mails = await readOutbox(db, request.query.to);
      return reply.code(200).send(mails.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, html: m.html, created_at: m.createdAt.toISOString() })));
    },
    advanceDevClock: async (request, reply) => {
      // Only for the browser tests' fake clock: nowhere else may a caller move the server's time.
      if (config.nodeEnv !== 'test') throw new HttpError(404, 'We could not find that.');
      const now = clock.advance(request.body.advance_ms);
      // Releases the moved clock has reached send their notices now, as the sweep would (on this test's clock).
      if (config.inProcessWorker) await sendDueNotices(noticeDeps);
      return reply.code(200).send({ now: now.toISOString() });
    },
  };

  // A call that takes a JSON body and got none (no content type, an empty body) is refused with 400
  // before its handler: a hook on those routes only (a hook on every request read the route's
  // options, a new object, on each).
  const refuseNoBody: preValidationHookHandler = (request, reply, done) => {
    done(request.body === undefined ? new HttpError(400, NO_BODY_MESSAGE) : undefined);
  };
  // Multipart bodies are checked by the upload handler itself (the signed policy, the file's bytes),
  // not by JSON Schema, so the contract's multipart schema is not attached to the route.
  app.addHook('onRoute', (route) => {
    if (route.url === '/upload' && route.schema) delete route.schema.body;
    else if (route.schema?.body) route.preValidation = [...[route.preValidation ?? []].flat(), refuseNoBody];
  });
  // The client sends a JSON content type on every call (spec/platform.md §7), also on POSTs without
  // a payload (submit, keep-alive): an empty body is no body, not bad JSON.
  // JSON and the upload's multipart only: any other body (text/plain, a form post) is refused
  // with 415 before a handler runs, so the contract's body schemas always apply.
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.decorateRequest('bodyText', null);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A byte-order mark first is allowed (RFC 8259 §8.1 lets a parser ignore it), and not kept: a
    // save stores the text as sent, and the database's JSON refuses one (issue 49: a 500).
    const text = String(body).replace(/^\uFEFF/, '');
    if (text.trim() === '') return done(null, undefined);
    request.bodyText = text;
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(Object.assign(new Error('The request body is not valid JSON.'), { statusCode: 400 }), undefined);
    }
  });

  // The types the contract only answers with (a PDF, a ZIP, the exports' files) are refused as a
  // body with 415, as Fastify refuses any type it has no parser for; said here, so that
  // fastify-openapi-glue, which looks for a parser for every type of the contract, responses'
  // too, does not warn at each start that none is found.
  // One copy of the contract for this app: read here, then handed to the glue (which may change it).
  const contract = loadContract();
  for (const type of answeredOnlyTypes(contract)) {
    if (!app.hasContentTypeParser(type)) app.addContentTypeParser(type, (request, _payload, done) => done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(type), undefined));
  }

  // Set before the routes are registered: the routes' context inherits it.
  app.setErrorHandler((raised: FastifyError | HttpError, _request, reply) => {
    const error: FastifyError | HttpError = schemeRefusal(raised) ?? raised;
    if (error instanceof HttpError) {
      const { errors, code, headers = {}, body = {} } = error.details;
      return reply
        .code(error.statusCode)
        .headers(headers)
        .send({ message: error.message, ...(errors ? { errors: onTheWire(errors) } : {}), ...(code ? { code } : {}), ...body });
    }
    if (error.validation) {
      // No prototype: a field named `constructor` or `__proto__` is a field like any other.
      const errors: Record<string, string[]> = Object.create(null);
      for (const issue of error.validation) {
        const missing = (issue.params as { missingProperty?: string }).missingProperty;
        const field = missing ?? (issue.instancePath.replace(/^\//, '').split('/')[0] || error.validationContext || 'request');
        (errors[field] ??= []).push(validationMessage(issue.keyword, issue.params as Record<string, unknown>));
      }
      return reply.code(400).send({ message: 'The request is invalid. Please check the highlighted fields.', errors: onTheWire(errors) });
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const unavailable = status === 500 ? unavailableReason(error) : null;
    if (unavailable) {
      reply.log.error(error);
      return reply
        .code(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_SECONDS))
        .send({ message: unavailableMessages[unavailable], code: 'UNAVAILABLE' });
    }
    if (status === 500) {
      reply.log.error(error);
      return reply.code(500).send({ message: GENERIC_ERROR_MESSAGE });
    }
    return reply.code(status).send({ message: clientMessage(status, error.message) });
  });

  const routesOf = (specification: Contract) => glueOptions(specification, handlers);
  const [uploadContract, callsContract] = splitContract(contract, (route) => route === '/upload');
  // The upload alone reads multipart, in a scope of its own: the plugin's two promise hooks (its
  // files' clean-up) ran on every request (issue 33). Any other call answers a multipart body
  // with 415, as it does any body but JSON. Read up to the largest file a policy allows; the
  // handler refuses anything bigger.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 20, fieldSize: 8_000, parts: 21 } });
    await scope.register(openapiGlue, routesOf(uploadContract));
  });
  await app.register(openapiGlue, routesOf(callsContract));

  const indexHtml = path.join(config.clientDir, 'index.html');
  const hasClient = existsSync(indexHtml);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      wildcard: false,
      index: false,
      // Source maps help a developer, and would hand anyone the whole source in production.
      // The server's own build of the form (signed-in pages drawn per request) is not for browsers.
      allowedPath: (pathName) => !pathName.startsWith(`/${SERVER_RENDER_DIR}/`) && (config.nodeEnv !== 'production' || !pathName.endsWith('.map')),
      // The build writes .br and .gz beside each asset: sent as they are to browsers that take them.
      preCompressed: true,
      // Hashed file names change with their content: kept for a year. Anything else is checked each time.
      cacheControl: false,
      setHeaders: (res, filePath) => res.header('cache-control', /[/\\]assets[/\\]/.test(filePath) ? IMMUTABLE : 'no-cache'),
    });
  }

  const client = hasClient ? clientPages(config.clientDir) : null;
  const drawSignedIn = client
    ? await signedInPages(app, config.clientDir, client.formPage, budgetOfDraws(app, { ...DEFAULT_DRAW_LIMITS, lagLimitMs: config.drawLagLimitMs, ...drawLimits }), metrics.drawnPage)
    : null;
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method === 'GET' && !isServerCall(request.url) && client) {
      // A signed-in form page drawn with the applicant's answers: theirs alone, never stored.
      const drawn = drawSignedIn ? await drawSignedIn(request) : null;
      if (drawn) return sendHtml(request, reply.header('cache-control', 'private, no-store'), drawn, { keep: false });
      // Client-side routes (and unknown paths, which the client redirects keeping the query).
      return sendHtml(request, reply.header('cache-control', 'no-cache'), client.pageFor(request.url.split('?')[0] ?? '/'), { keep: true });
    }
    // The error handler's own answers and this catch-all are the two places a refusal is sent, not thrown.
    return reply.code(404).send({ message: 'We could not find that.' });
  });

  return app;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * A request's operation in the metrics: the contract's operationId, else what served it (a file of
 * the build, a page, nothing). Never the path itself: the series stay as few as the operations.
 */
function operationOf(request: FastifyRequest): string {
  const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  if (operationId) return operationId;
  if (request.routeOptions.url) return 'static';
  return request.method === 'GET' && !isServerCall(request.url) ? 'page' : 'not_found';
}

/**
 * What the glue is given for a contract: each operation's schemas from the same contract the
 * handlers are typed from, the contract's security checked before each handler
 * (`contractSecurity`), and the handlers (its resolver only speaks untyped ones).
 */
export function glueOptions(specification: Contract, handlers: Handlers) {
  return {
    specification,
    prefix: '',
    securityHandlers: contractSecurity,
    operationResolver: (operationId: string) => (handlers[operationId as OperationId] as RouteHandlerMethod | undefined) ?? notBuiltYet(operationId),
  };
}

/** This process's budget of drawn pages, watching its event loop while the app is open. */
function budgetOfDraws(app: FastifyInstance, limits: DrawLimits) {
  const loop = eventLoopWatch();
  app.addHook('onClose', async () => loop.stop());
  return drawBudget(limits, loop.now);
}

function notBuiltYet(operationId: string): RouteHandlerMethod {
  return async (_request, reply) =>
    reply.code(501).send({ message: `The operation ${operationId} is not built yet.` });
}

/** JSON Schema keywords in words an applicant (or a client developer) can act on. */
function validationMessage(keyword: string, params: Record<string, unknown>): string {
  switch (keyword) {
    case 'required':
      return 'This field is required.';
    case 'maxLength':
      return `This field can have at most ${String(params.limit)} characters.`;
    case 'minLength':
      return `This field needs at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'}.`;
    case 'enum':
      return `This field must be one of: ${(params.allowedValues as unknown[]).join(', ')}.`;
    case 'type':
      return `This field must be of type ${String(params.type)}.`;
    case 'minimum':
    case 'maximum':
      return `This field must be ${keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}.`;
    case 'additionalProperties':
      return `The field ${String(params.additionalProperty)} is not expected here.`;
    case 'maxProperties':
      return `At most ${String(params.limit)} fields can be sent at once.`;
    default:
      return 'This field is not in the expected format.';
  }
}

/**
 * The contract's bounds of an `errors` map (FieldErrors): keys named like answer keys or a path into
 * the body joined by dots (`rules.0.label`, `ratings.Academic achievement`), at most 500 of them, 20
 * messages of 500 characters each.
 */
const WIRE_KEY = /^[a-z][a-z0-9_]*(\.[^.]+)*$/;
const MAX_ERROR_KEYS = 500;
const MAX_MESSAGES = 20;
const MAX_MESSAGE_CHARS = 500;

/**
 * Field errors as the contract allows them: a key that is not a field name (one a caller made up,
 * which is echoed nowhere) is reported under `request`, and the lists are cut to the bounds.
 */
function onTheWire(errors: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null); // no prototype: a key may be named constructor
  for (const [key, messages] of Object.entries(errors)) {
    const name = WIRE_KEY.test(key) && key.length <= 80 ? key : 'request';
    if (!(name in out) && Object.keys(out).length >= MAX_ERROR_KEYS) break;
    out[name] = [...new Set([...(out[name] ?? []), ...messages.map((m) => (m.length > MAX_MESSAGE_CHARS ? `${m.slice(0, MAX_MESSAGE_CHARS - 1)}…` : m))])].slice(0, MAX_MESSAGES);
  }
  return out;
}

const NO_BODY_MESSAGE = 'The request has no body: send its fields as JSON.';

/** Fastify's own 4xx texts are for developers; give the applicant a sentence. */
function clientMessage(status: number, fallback: string): string {
  switch (status) {
    case 413:
      return 'The request is too large.';
    case 415:
      return 'The request must be sent as JSON.';
    case 400:
      return /JSON/i.test(fallback) ? 'The request body is not valid JSON.' : 'The request is invalid.';
    default:
      return fallback;
  }
}
