// Insights reads on Meta's Graph APIs (Instagram, Facebook Pages, Threads), shared by their
// readers: the `insights` edge answers { data: [{ name, period, values: [{ value }], title, id }] }
// (https://developers.facebook.com/docs/graph-api/reference/insights), and several objects are
// read in one request with `?ids=a,b&fields=insights.metric(…)` (Graph's multiple-id lookup).
//
// Meta retires insight metrics between API versions (Instagram's impressions in v22.0,
// Facebook's post_impressions_unique in 2025): a retired metric makes the whole request fail
// with (#100). Rather than lose every metric, the reader then asks for each metric alone on one
// post, drops the ones refused and reads the rest; a dropped metric is null with Meta's own
// words as the reason.
import { TokenExpiredError } from './publisher';
import type { GraphClient, GraphObject } from './graph-api';

export interface GraphInsightsResult {
  /** Per object id: metric name → value (a number, or an object for breakdowns such as post_clicks_by_type). */
  byId: Map<string, { insights: Map<string, unknown>; fields: GraphObject }>;
  /** Metrics the API version refused, with Meta's message. */
  dropped: Map<string, string>;
}

/** A refusal that names an invalid parameter (a metric this version no longer has). */
function isInvalidMetric(error: unknown): error is Error {
  return error instanceof Error && !(error instanceof TokenExpiredError) && /\(#100\)|invalid.*metric|metric.*(no longer|not) supported/i.test(error.message);
}

/** The values of an `insights` edge by metric name. */
export function insightValues(edge: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const data = (edge as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return out;
  for (const row of data as { name?: unknown; values?: { value?: unknown }[]; total_value?: { value?: unknown } }[]) {
    if (typeof row.name !== 'string') continue;
    const value = Array.isArray(row.values) ? row.values[row.values.length - 1]?.value : row.total_value?.value;
    out.set(row.name, value);
  }
  return out;
}

/**
 * Reads `metrics` (and plain `fields`) of several objects in one request. With `perObject`,
 * each object is read alone through `/{id}/insights` (APIs without the multiple-id lookup).
 */
export async function readGraphInsights(
  graph: GraphClient,
  ids: readonly string[],
  metrics: readonly string[],
  options: { fields?: string; perObject?: boolean } = {},
): Promise<GraphInsightsResult> {
  const dropped = new Map<string, string>();
  let asked = [...metrics];

  const once = async (): Promise<GraphInsightsResult['byId']> => {
    const byId: GraphInsightsResult['byId'] = new Map();
    if (options.perObject) {
      for (const id of ids) {
        const answer = asked.length ? await graph.get(`${id}/insights`, { metric: asked.join(',') }) : {};
        byId.set(id, { insights: insightValues(answer), fields: {} });
      }
      return byId;
    }
    const fields = [options.fields, asked.length ? `insights.metric(${asked.join(',')})` : undefined].filter(Boolean).join(',');
    const answer = await graph.get('', { ids: ids.join(','), fields });
    for (const id of ids) {
      const object = answer[id] as GraphObject | undefined;
      if (object) byId.set(id, { insights: insightValues(object.insights), fields: object });
    }
    return byId;
  };

  try {
    return { byId: await once(), dropped };
  } catch (error) {
    if (!isInvalidMetric(error) || ids.length === 0) throw error;
    // Which metrics does this API version refuse? Ask each alone on the first object.
    for (const metric of asked) {
      try {
        await graph.get(`${ids[0]}/insights`, { metric });
      } catch (probe) {
        if (!isInvalidMetric(probe)) throw probe;
        dropped.set(metric, probe.message);
      }
    }
    if (dropped.size === 0) throw error;
    asked = asked.filter((m) => !dropped.has(m));
    return { byId: await once(), dropped };
  }
}
