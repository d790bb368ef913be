// The product's mark, the same drawing as public/brand.svg (inline so it needs no request and scales crisply):
// two speech bubbles, the front one "typing".
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
        d="M34 27h11a7 7 0 0 1 7 7v7a7 7 0 0 1-5 6.7V53l-6.3-5H34a7 7 0 0 1-7-7v-7a7 7 0 0 1 7-7z"
        fill="#fff"
        fillOpacity=".5"
      />
      <path d="M20 12h17a7 7 0 0 1 7 7v10a7 7 0 0 1-7 7H25l-7 6v-6.4a7 7 0 0 1-5-6.6V19a7 7 0 0 1 7-7z" fill="#fff" />
      <circle cx="22" cy="24" r="2.4" fill="#4366ec" />
      <circle cx="28.5" cy="24" r="2.4" fill="#4366ec" />
      <circle cx="35" cy="24" r="2.4" fill="#4366ec" />
    </svg>
  );
}
