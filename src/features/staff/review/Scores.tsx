import type { components } from '../../../../generated/api';
import { scoreText, termLabel } from '../../../../domain/scores';

type ApplicationScores = components['schemas']['ApplicationScores'];
type ScoreSummary = components['schemas']['ScoreSummary'];

/** "Admit 2 · Deny 1": how many reviews recommend each thing, most first. */
const recommendationsText = (scores: Pick<ScoreSummary, 'recommendations'>) => scores.recommendations.map((each) => `${each.recommendation} ${each.count}`).join(' · ');

/**
 * What an application's reviews add up to, and its composite score with how it was computed (issue
 * 51 §1): each part's weight, what it read and what it added, so a committee can check the rank.
 */
export function Scores({ scores }: { scores: ApplicationScores }) {
  return (
    <div className="staff-scores">
      <p>
        <strong>Composite score: {scores.composite === null ? 'none' : scoreText(scores.composite)}</strong>
        {scores.reason ? ` (${scores.reason})` : ''}
      </p>
      {scores.parts.length > 0 && (
        <table className="staff-scores__parts">
          <caption>How it is computed (formula version {scores.formula_version})</caption>
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col">Weight</th>
              <th scope="col">Value</th>
              <th scope="col">Points</th>
            </tr>
          </thead>
          <tbody>
            {scores.parts.map((part) => (
              <tr key={`${part.source}:${part.name}`}>
                <th scope="row">{termLabel(part)}</th>
                <td>{scoreText(part.weight)}</td>
                <td>{part.value === null ? 'none' : scoreText(part.value)}</td>
                <td>{part.points === null ? '—' : scoreText(part.points)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {scores.reviews > 0 && (
        <dl className="staff-review__ratings">
          {scores.means.map((mean) => (
            <div key={mean.scale}>
              <dt>{mean.scale} (mean)</dt>
              <dd>{scoreText(mean.mean)}</dd>
            </div>
          ))}
          <div>
            <dt>Recommendations</dt>
            <dd>{recommendationsText(scores)}</dd>
          </div>
        </dl>
      )}
    </div>
  );
}
