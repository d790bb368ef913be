// The product's mark, the same drawing as public/brand.svg (inline so it inherits no request and scales crisply).
export function BrandMark({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" role="img" aria-label="Беседа" className="brand-mark">
      <defs>
        <linearGradient id="bm-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#2f7cf6" />
          <stop offset="1" stopColor="#5b4fe0" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill="url(#bm-bg)" />
      <path
        d="M14 19a7 7 0 0 1 7-7h16a7 7 0 0 1 7 7v10a7 7 0 0 1-7 7h-9l-7 6v-6.3A7 7 0 0 1 14 29z"
        fill="#fff"
        fillOpacity=".95"
      />
      <path
        d="M48 27.5a6 6 0 0 1 4 5.6v8.8a6 6 0 0 1-6 6v5.6l-6.6-5.6H33a6 6 0 0 1-5.7-4.1"
        fill="none"
        stroke="#fff"
        strokeOpacity=".8"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="23" cy="24" r="2.3" fill="#4366ec" />
      <circle cx="29" cy="24" r="2.3" fill="#4366ec" />
      <circle cx="35" cy="24" r="2.3" fill="#4366ec" />
    </svg>
  );
}
