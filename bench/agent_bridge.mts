/**
 * A bridge between bench/head_to_head.py and the strategies of a local checkout of
 * ThingsAI-io/6-nimmt-agent, speaking JSON lines on stdin/stdout.
 *
 *     <agent>/node_modules/.bin/tsx bench/agent_bridge.mts <agent checkout>
 *
 * None of the agent's code is copied here: its engine is imported from the checkout.
 * Each request is one line `{"op": ..., "id": ..., ...}`, answered by one line. `id`
 * names one seat of one game (one strategy instance, fed the seat's visible state only):
 *
 * - start   {strategy, options?, players, seat, seed}  -> {ok, strategy, options}
 *           onGameStart, with the agent's own seeded rng (xoshiro256** of seed/seat)
 * - round   {round, hand, board}                      -> {ok}   onRoundStart
 * - turn    {resolution}                               -> {ok}   onTurnResolved
 * - card    {state: CardChoiceState}                   -> {card, cpu_ms}
 * - row     {state: RowChoiceState}                    -> {row, cpu_ms}
 * - end     {}                                         -> {ok}   forgets the seat
 *
 * `cpu_ms` is this process's CPU time (process.cpuUsage, user + system) spent in the
 * strategy's chooseCard or chooseRow. Boards are 4 arrays of cards, each row's last card
 * last, exactly as the agent's own engine holds them.
 */
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const checkout = process.argv[2];
if (!checkout) {
  process.stderr.write('usage: tsx bench/agent_bridge.mts <6-nimmt-agent checkout>\n');
  process.exit(2);
}
const engine = await import(pathToFileURL(resolve(checkout, 'src/engine/index.ts')).href);

type Strategy = {
  name: string;
  getOptions?(): Record<string, unknown>;
  chooseCard(state: unknown): number;
  chooseRow(state: unknown): number;
  onGameStart?(config: { playerId: string; playerCount: number; rng: () => number }): void;
  onRoundStart?(info: { round: number; hand: number[]; board: unknown }): void;
  onTurnResolved?(resolution: unknown): void;
};

const seats = new Map<string, Strategy>();

function board(rows: number[][]) {
  return { rows };
}

function timed<T>(decide: () => T): [T, number] {
  const before = process.cpuUsage();
  const value = decide();
  const spent = process.cpuUsage(before);
  return [value, (spent.user + spent.system) / 1000];
}

function handle(request: Record<string, any>): Record<string, unknown> {
  const { op, id } = request;
  if (op === 'start') {
    const { name, options } = engine.parseStrategySpec(request.strategy);
    const factory = engine.strategies.get(name);
    if (!factory) throw new Error(`unknown strategy ${name}`);
    const strategy: Strategy = factory({ ...(options ?? {}), ...(request.options ?? {}) });
    const state = engine.deriveSeedState(`${request.seed}/${request.seat}`);
    const rng = () => Number(engine.xoshiro256ss(state) >> 11n) / 2 ** 53;
    strategy.onGameStart?.({ playerId: request.seat, playerCount: request.players, rng });
    seats.set(id, strategy);
    return { ok: true, strategy: strategy.name, options: strategy.getOptions?.() ?? {} };
  }
  const strategy = seats.get(id);
  if (!strategy) throw new Error(`no seat ${id}`);
  if (op === 'round') {
    strategy.onRoundStart?.({ round: request.round, hand: request.hand, board: board(request.board) });
    return { ok: true };
  }
  if (op === 'turn') {
    strategy.onTurnResolved?.(request.resolution);
    return { ok: true };
  }
  if (op === 'card' || op === 'row') {
    const state = request.state;
    state.board = board(state.board);
    if (state.initialBoardCards) state.initialBoardCards = board(state.initialBoardCards);
    for (const entry of state.turnHistory) entry.boardAfter = board(entry.boardAfter);
    if (op === 'card') {
      const [card, cpu] = timed(() => strategy.chooseCard(state));
      return { card, cpu_ms: cpu };
    }
    const [row, cpu] = timed(() => strategy.chooseRow(state));
    return { row, cpu_ms: cpu };
  }
  if (op === 'end') {
    seats.delete(id);
    return { ok: true };
  }
  throw new Error(`unknown op ${op}`);
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  let answer: Record<string, unknown>;
  try {
    answer = handle(JSON.parse(line));
  } catch (error) {
    answer = { error: String(error) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
