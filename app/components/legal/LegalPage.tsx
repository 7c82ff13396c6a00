import type { LegalBlock, LegalDocument } from "~/catalogue/legal";
import { PageHero } from "~/components/marketing/PageHero";

/** "26 November 2026": a fixed date, the same for every reader whatever their time zone. */
function formatDate(iso: string): string {
  const [year, month, day] = iso.split("-").map(Number);
  const months = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ];
  return `${day} ${months[(month ?? 1) - 1]} ${year}`;
}

function Block({ block }: { block: LegalBlock }) {
  if (typeof block === "string") return <p>{block}</p>;
  return (
    <ul className="list-disc space-y-2 pl-5">
      {block.list.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

/** A legal document: its summary, a table of contents and numbered sections, readable on a phone. */
export function LegalPage({ document: doc }: { document: LegalDocument }) {
  return (
    <>
      <PageHero eyebrow="Legal" title={doc.title} lead={doc.summary}>
        <p className="mt-6 text-sm text-slate-300">
          Last updated: <time dateTime={doc.updated}>{formatDate(doc.updated)}</time>
        </p>
      </PageHero>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[16rem_1fr] lg:py-16">
        <nav aria-labelledby="legal-contents" className="lg:sticky lg:top-28 lg:self-start">
          <h2 id="legal-contents" className="text-sm font-semibold uppercase tracking-wider text-muted-foreground">
            Contents
          </h2>
          <ol className="mt-3 space-y-1.5 text-sm">
            {doc.sections.map((s, i) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="text-foreground underline-offset-4 hover:text-primary hover:underline">
                  {i + 1}. {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <article className="max-w-3xl space-y-10 text-base leading-relaxed text-foreground">
          {doc.sections.map((s, i) => (
            <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="scroll-mt-28 space-y-3">
              <h2 id={`${s.id}-title`} className="text-xl font-bold sm:text-2xl">
                {i + 1}. {s.title}
              </h2>
              {s.blocks.map((block, j) => (
                <Block key={j} block={block} />
              ))}
            </section>
          ))}
        </article>
      </div>
    </>
  );
}
