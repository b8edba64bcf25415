"""Built-in example sets, written for this project, each chosen to show a clear structure in a heatmap."""

from __future__ import annotations

EXAMPLES: dict[str, list[str]] = {
    "Paraphrase clusters (3 × 3 questions)": [
        "How do I reset my password?",
        "What are the steps to change my login password?",
        "I forgot my password; how can I recover it?",
        "What is the best way to learn Python?",
        "How should a beginner start programming in Python?",
        "Which resources help me learn to code in Python?",
        "How long does it take to boil an egg?",
        "How many minutes should I cook a hard-boiled egg?",
        "What is the right boiling time for eggs?",
    ],
    "One word, several senses (bank)": [
        "She sat on the bank of the river and watched the water.",
        "The fishermen pulled their boat onto the muddy bank.",
        "He deposited his salary at the bank on Monday.",
        "The bank raised its interest rates again.",
        "The pilot had to bank the plane sharply to the left.",
        "You can bank on her to finish the job on time.",
    ],
    "Synonyms against antonyms (same frame)": [
        "The movie was good.",
        "The movie was great.",
        "The movie was excellent.",
        "The movie was bad.",
        "The movie was terrible.",
        "The movie was awful.",
    ],
    "Unrelated sentences": [
        "The cat is sleeping on the windowsill.",
        "Interest rates rose by half a percent this quarter.",
        "Photosynthesis turns light into chemical energy.",
        "The concert starts at eight o'clock tonight.",
        "He fixed the leaking pipe under the kitchen sink.",
        "Mount Everest is the highest mountain on Earth.",
    ],
}

PARAPHRASE_CLUSTERS = "Paraphrase clusters (3 × 3 questions)"
