// Tailwind CSS for the staff app (app/(staff)/staff.css); the client pages keep their own CSS modules.
const config = { plugins: { '@tailwindcss/postcss': {} } };
export default config;
