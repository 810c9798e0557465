"""Every calculator: its game, its page address and its name."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Calculator:
    id: str
    game: str
    slug: str
    title: str

    @property
    def url(self):
        return f"/{self.game}/calc/{self.slug}"


CALCULATORS = {c.id: c for c in (
    Calculator("wotr-roll", "wotr", "roll", "Combat roll and leader re-roll"),
    Calculator("wotr-battle", "wotr", "battle", "Whole battle odds"),
    Calculator("fotf-search", "fotf", "search", "Search roll"),
    Calculator("fotf-battle", "fotf", "battle", "Battle roll"),
    Calculator("fotf-ring", "fotf", "ring", "Destroying the One Ring"),
    Calculator("meccg-influence", "meccg", "influence", "Influence attempt"),
    Calculator("meccg-faction", "meccg", "faction", "Playing a faction"),
    Calculator("meccg-strike", "meccg", "strike", "Strike and body check"),
    Calculator("meccg-corruption", "meccg", "corruption", "Corruption check"),
    Calculator("meccg-council", "meccg", "council", "The Free Council score"),
    Calculator("meq-dominance", "meq", "dominance", "Dominance"),
    Calculator("wotr-cards-combat", "wotr-cards", "combat", "Path and battleground combat"),
    Calculator("wotr-cards-victory", "wotr-cards", "victory", "Victory check"),
)}


def for_game(game_id):
    return [c for c in CALCULATORS.values() if c.game == game_id]
