// «Тема» in Settings: «Системная», «Светлая», «Тёмная» as a radio group; the page changes at once.
import { THEME_CHOICES, THEME_LABELS, type ThemeChoice } from '../../contract/theme';
import './theme.css';

export function ThemeSection(props: { choice: ThemeChoice; onChoose(choice: ThemeChoice): void }) {
  return (
    <fieldset className="card form theme-section">
      <legend className="section-title">Тема</legend>
      <div className="theme-choices">
        {THEME_CHOICES.map((c) => (
          <label key={c} className={`theme-choice${props.choice === c ? ' chosen' : ''}`}>
            <input
              type="radio"
              name="theme"
              value={c}
              checked={props.choice === c}
              onChange={() => props.onChoose(c)}
            />
            <span>{THEME_LABELS[c]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
